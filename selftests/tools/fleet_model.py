#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
"""A model of a fleet's re-join wave, to design the pacer's control law.

Not a test and not the proof (that is the fleet bench in the VM, with the
module and simhca): a discrete-event model, fast enough to try a control
law against many SA capacities in seconds. Documentation/design-notes.rst
("Fleet-scale recovery") says what it found.

The fleet: N ports (nodes), each with G groups to re-join at once, as after
a fabric-wide CLIENT_REREGISTER; each port starts at a random time within
JIT seconds (the settle jitter). The SA: one FIFO server answering R
requests per second, B seconds of network round trip; a request that
would wait longer than QMAX is dropped. The MAD layer resends a request
unanswered after MAD_TO seconds (6.12's SA client: 10 tries of 300 ms for
multicast.c's 3 s); a resend costs the SA a request too. After the tenth,
the join times out, and the port sends it again a second later.

Each port runs one of three laws:

  fixed   what 0.7.0 does: a token bucket at RATE (rejoin_rate) and an
          in-flight limit of 2 x RATE x the smoothed round trip, at least
          8 and at most 64
  delay   the candidate of issue 31: the SA's queueing delay q (a round
          trip less the port's base round trip, the least seen, taken as
          at most BASE_MAX) read once per round (the smoothed round trip,
          10 to 100 ms) from the least round trip of the round's answers:
            - start: RATE0 x (1 + jitter); x2 per round while q < QEXIT,
              then halved once;
            - q > 2T: x DEC; T < q <= 2T: less by ALPHA x (q - T) / T per
              second; q <= T and requests waited: more by ALPHA x (T - q)
              / T per second, and by MI of the rate where q < T / 4;
            - in-flight limit: 2 x rate x (base + T), at least 2;
            - while requests wait, the pacer runs at least once a round.
  vegas   the better candidate: a window W of requests in flight (as TCP
          Vegas), paced at W / the smoothed round trip; once per round
          (the least round trip of the round's answers, at least 10 ms)
          the port's requests in the SA's queue are estimated as
          W x (1 - base / round trip):
            - start: W0 = 0.1; x2 per round while that is below VA, then
              x 3/4 once;
            - below VA: W + 1 (W + W/4 where W < 1, at least WMIN);
              above VB: W - 1 (W - W/4 where W <= 2, at least WMIN);
            - a round trip less than DELAY_OK (2 ms) over the base is no
              queue: x2 in the start, W + 1 after;
            - in flight: at most W, at least 1.

wave(trace=S) prints the fleet's state every S seconds of the model: the
SA's requests in the last 100 ms, its queue, the ports' rates.

Prints, for each R: the wave's time over the ideal total / R, the most
requests the SA saw in any 100 ms over R x 100 ms, and resends over
requests (issue 31's targets: 1.2, 1.1 and 0.01).

  selftests/tools/fleet_model.py [--law fixed|delay|vegas] [--ports N]
                                 [--groups G] [--rate R]... [--seed S]
"""
import argparse
import heapq
import math
import random


class Port:
    pass


def wave(law='delay', n=64, g=256, r=2000, seed=1, base=0.0004, qmax=2.0,
         mad_to=0.3, jit=0.5, rate=20, rate0=1, t=0.010, qexit=0.002,
         alpha=200, dec=0.875, mi=1 / 8, base_max=0.005, round_min=0.010,
         round_max=0.100, trace=0.0, va=0.25, vb=1.0, wmin=0.05, w0=0.1,
         delay_ok=0.002):
    rnd = random.Random(seed)
    ev = []
    seq = [0]

    def push(when, kind, data):
        seq[0] += 1
        heapq.heappush(ev, (when, seq[0], kind, data))

    sa_free = 0.0
    arrivals = []
    st = {'resends': 0, 'drops': 0, 'timeouts': 0}
    ports = []
    for i in range(n):
        p = Port()
        p.i, p.left, p.inflight, p.wake = i, g, 0, None
        p.rate = rate if law == 'fixed' else rate0 * (1 + rnd.random())
        p.w = w0
        if law == 'vegas':
            p.rate = p.w / base_max
        p.credit, p.last = 1 / p.rate, 0.0
        p.srtt, p.base, p.rmin, p.lastq = 0.0, None, None, 0.0
        p.ss, p.limited, p.round_start, p.round_end = True, False, 0.0, 0.0
        ports.append(p)
        push(rnd.random() * jit, 'pace', i)

    def limit(p):
        if law == 'vegas':
            return max(1, math.ceil(p.w))
        if law == 'fixed':
            want = math.ceil(2 * p.rate * min(p.srtt, 1.0)) if p.srtt else 8
            return max(8, min(64, want))
        return max(2, math.ceil(2 * p.rate * ((p.base or base_max) + t)))

    def sa(when):
        """A request reaches the SA at @when: its answer's time, or None."""
        nonlocal sa_free
        arrivals.append(when)
        start = max(sa_free, when)
        if start - when > qmax:
            st['drops'] += 1
            return None
        sa_free = start + 1 / r
        return sa_free + base / 2

    def send(p, now, t0, tries=1, rid=None):
        if rid is None:
            seq[0] += 1
            rid = seq[0]
        ans = sa(now + base / 2)
        if ans is None or ans - now > mad_to:
            push(now + mad_to, 'resend', (p.i, t0, tries, rid))
        if ans is not None:
            push(ans, 'answer', (p.i, t0, 0, rid))

    def control(p, now, sample):
        if sample is not None:
            p.base = min(base_max, sample) if p.base is None else \
                min(p.base, sample)
            p.srtt = sample if not p.srtt else p.srtt + (sample - p.srtt) / 8
            p.rmin = sample if p.rmin is None else min(p.rmin, sample)
        if law == 'vegas':
            vegas(p, now, sample)
            return
        if law == 'fixed' or now < p.round_end or p.base is None:
            return
        fresh = p.rmin is not None
        q = p.rmin - p.base if fresh else p.lastq
        p.lastq, p.rmin = q, None
        span = now - p.round_start
        if p.ss:
            if q > qexit:
                p.ss = False
                p.rate = max(1, p.rate / 2)
            elif p.limited and fresh:
                p.rate *= 2
        elif q > 2 * t:
            if fresh:
                p.rate = max(1, p.rate * dec)
        elif q > t:
            if fresh:
                p.rate = max(1, p.rate - alpha * span * (q - t) / t)
        elif p.limited:
            add = alpha * span * (t - q) / t
            if q < t / 4:
                add = max(add, p.rate * mi)
            p.rate += add
        p.limited = False
        p.round_start = now
        p.round_end = now + min(max(p.srtt, round_min), round_max)

    def vegas(p, now, sample):
        if sample is None or now < p.round_end:
            return
        rtt = p.rmin
        p.rmin = None
        # the requests of this port in the SA's queue
        diff = p.w * (1 - p.base / rtt)
        # less than DELAY_OK over the base is no queue (pacer.h)
        queue = rtt >= p.base + delay_ok
        if p.ss:
            if queue and diff > va:
                p.ss = False
                p.w = max(wmin, p.w * 0.75)
            else:
                p.w *= 2
        elif not queue or diff < va:
            p.w += max(wmin, min(1.0, p.w / 4)) if p.w < 1 else 1
        elif diff > vb:
            p.w = max(wmin, p.w - (1 if p.w > 2 else p.w / 4))
        p.round_end = now + max(rtt, round_min)
        # the rate paces the window over the round trip
        p.rate = max(p.w / max(p.srtt, p.base), 0.1)

    def pace(p, now):
        control(p, now, None)
        iv = 1 / p.rate
        top = max(0.010, iv + min(iv, 0.010))
        p.credit = min(top, p.credit + now - p.last)
        p.last = now
        while p.left and p.credit >= iv and p.inflight < limit(p):
            p.credit -= iv
            p.left -= 1
            p.inflight += 1
            send(p, now, now)
        if p.left:
            p.limited = True
            if p.inflight < limit(p) and p.wake is None:
                w = max(iv - p.credit, 1e-6)
                if law != 'fixed':
                    w = min(w, round_min)
                p.wake = now + w
                push(p.wake, 'pace', p.i)

    done, total, now = 0, n * g, 0.0
    answered = set()
    tick = 0.0
    while ev and done < total:
        now, _, kind, data = heapq.heappop(ev)
        if trace and now >= tick:
            tick += trace
            rates = sorted(p.rate for p in ports if p.left or p.inflight)
            print(f"t={now:7.3f} 100ms={sum(1 for a in arrivals[-5000:] if a > now - 0.1):5d} "
                  f"queue={1000 * max(0.0, sa_free - now):6.1f}ms busy_ports={len(rates):3d} "
                  f"rate min/med/max={rates[0] if rates else 0:.0f}/"
                  f"{rates[len(rates) // 2] if rates else 0:.0f}/{rates[-1] if rates else 0:.0f} "
                  f"done={done}")
        if kind == 'pace':
            ports[data].wake = None
            pace(ports[data], now)
            continue
        p, t0 = ports[data[0]], data[1]
        rid = data[3] if len(data) > 3 else None
        if kind == 'retry':
            p.left += 1
            pace(p, now)
        elif kind == 'resend':
            if rid in answered:
                continue
            if data[2] >= 10:
                answered.add(rid)
                st['timeouts'] += 1
                p.inflight -= 1
                push(now + 1, 'retry', (p.i, 0, 0, None))
                continue
            st['resends'] += 1
            send(p, now, t0, data[2] + 1, rid)
        elif rid not in answered:
            answered.add(rid)
            p.inflight -= 1
            done += 1
            control(p, now, now - t0)
            pace(p, now)
    arrivals.sort()
    most, j = 0, 0
    for k, a in enumerate(arrivals):
        while a - arrivals[j] > 0.1:
            j += 1
        most = max(most, k - j + 1)
    assert done == total, f"the model stalled: {done} of {total} done"
    return {'time': now / (total / r), 'window': most / (0.1 * r),
            'resends': st['resends'] / total, 'drops': st['drops'],
            'timeouts': st['timeouts']}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--law', default='vegas', choices=['fixed', 'delay', 'vegas'])
    ap.add_argument('--ports', type=int, default=64)
    ap.add_argument('--groups', type=int, default=256)
    ap.add_argument('--rate', type=int, action='append')
    ap.add_argument('--seed', type=int, default=1)
    a = ap.parse_args()
    print(f"# {a.law}: {a.ports} ports x {a.groups} groups; targets: time "
          f"<= 1.2 x total/R, 100 ms window <= 1.1 x R, resends <= 1 %")
    for r in a.rate or [500, 2000, 5000, 20000]:
        w = wave(law=a.law, n=a.ports, g=a.groups, r=r, seed=a.seed)
        print(f"R={r:>6}/s  time {w['time']:6.2f} x total/R  window "
              f"{w['window']:5.2f} x R  resends {100 * w['resends']:6.2f} %"
              f"  drops {w['drops']}  timeouts {w['timeouts']}")


if __name__ == '__main__':
    main()
