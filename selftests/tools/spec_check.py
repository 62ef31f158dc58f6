#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
"""Check that the YNL spec, the UAPI header and both policy tables agree.

The protocol of ib_mcgroups is written down in five places by hand:

  Documentation/netlink/specs/ib_mcgroups.yaml  the YNL spec
  include/uapi/ib_mcgroups.h                    the UAPI header (the
                                                reference for the wire)
  kernel/netlink.c (and kernel/nl_*.c beside it) the kernel's nla_policy
                                                tables, op table, mcgrps,
                                                and what it puts in replies
  user/lib/decode.c                             libibmcg's decode policies
  selftests/genl_policy.c                       op_attrs[], what the VM test
                                                expects CTRL_CMD_GETPOLICY
                                                to report

The kernel's ynl-gen-c cannot generate them (see the spec's doc), so this
script compares them and prints one line per difference, e.g.

  attr ib-mcg.port: spec says u32, kernel join policy NLA_U16

It exits 1 on any difference, 0 when they agree. Only python3-yaml is
needed. Usage: spec_check.py [--top DIR] [--spec F] [--header F]
[--kernel F] [--decode F] [--selftest F] (files default to the tree
above this script); spec_check.py --self-test checks that a change to a
copy of the files is reported (KTAP).

What is compared:
  header   the types its comment gives attributes, family name and
           version defines, every const, every enum and
           flags definition (names and values; an extra header entry must
           be named in the definition's doc), every attribute set (enum
           name, entry names, ids, the __MAX entry and the MAX define),
           the command enum, the multicast group name defines;
  kernel   the family's name/version/maxattr, the mcast group names, and
           for every do and dump of the spec an op with that command and
           GENL_CMD_CAP_DO/DUMP (and GENL_ADMIN_PERM exactly when the spec
           says admin-perm), whose policy accepts exactly the spec's
           request attributes, each with the spec's type and checks
           (exact-len, max-len, min, max, flags-mask); no other ops. A spec
           check that the kernel applies in the handler instead of the
           policy (for its extack message) must be listed in
           HANDLER_CHECKS below, with the text the handler is found by;
           every nla_put_*()/nla_nest_start() of an attribute uses the
           spec's type, and the attributes put are exactly those the
           spec's replies carry (nests followed);
  libibmcg every decode policy entry has the spec's type (and a binary's
           exact length), and every attribute a reply of the spec carries
           is decoded (multi-attr nests, walked by hand, excepted);
  selftest op_attrs[] lists every command with a do or dump, each with
           exactly the spec's request attributes (0: no such form).
"""

import argparse
import glob
import os
import re
import sys

import yaml

# Checks the spec lists that kernel/netlink.c applies in a command handler
# rather than in the nla_policy (the handler's extack text is more precise
# than the policy's). (set, attribute, check) -> a string netlink.c must
# contain, so that an entry goes stale loudly when the handler goes.
HANDLER_CHECKS = {
    ('ib-mcg', 'dev-name', 'max-len'): 'IB_DEVICE_NAME_MAX',
    ('ib-mcg', 'owner', 'max-len'): 'IB_MCG_OWNER_MAX',
    ('ib-mcg', 'port', 'min'): 'num = nla_get_u32(tb[IB_MCG_A_PORT])',
    ('ib-mcg', 'join-state', 'flags-mask'): 'nla_get_u8(tb[IB_MCG_A_JOIN_STATE])',
    ('ib-mcg', 'linger-ms', 'max'): 'tb[IB_MCG_A_LINGER_MS]',
}

# Constants of <rdma/ib_verbs.h> the kernel's policies use.
KERNEL_CONSTS = {
    'IB_MTU_256': 1, 'IB_MTU_512': 2, 'IB_MTU_1024': 3, 'IB_MTU_2048': 4,
    'IB_MTU_4096': 5,
    'IB_RATE_2_5_GBPS': 2, 'IB_RATE_600_GBPS': 22,
}

SCALAR_NLA = {'u8': 'NLA_U8', 'u16': 'NLA_U16', 'u32': 'NLA_U32',
              'u64': 'NLA_U64', 's8': 'NLA_S8', 's16': 'NLA_S16',
              's32': 'NLA_S32', 's64': 'NLA_S64', 'flag': 'NLA_FLAG',
              'string': 'NLA_STRING', 'binary': 'NLA_BINARY',
              'nest': 'NLA_NESTED', 'pad': 'NLA_UNSPEC'}

errors = []


def err(msg):
    errors.append(msg)


def c_name(*parts):
    return ''.join(parts).upper().replace('-', '_')


def numbered_enum(prefix, items):
    """The (name, value) entries of a YNL-numbered enum (attributes or
    commands): PREFIX_UNSPEC 0, the items from 1 (or their 'value'), and
    __PREFIX_MAX one past the last; with the __PREFIX_MAX name."""
    want = [(c_name(prefix, 'unspec'), 0)]
    val = 1
    for item in items:
        if 'value' in item:
            val = item['value']
        want.append((c_name(prefix, item['name']), val))
        val += 1
    maxname = c_name('__', prefix, 'max')
    want.append((maxname, val))
    return want, maxname


def strip_comments(text):
    text = re.sub(r'/\*.*?\*/', ' ', text, flags=re.S)
    return re.sub(r'//[^\n]*', ' ', text)


def c_eval(expr, names):
    """Evaluates a C integer constant expression over known names."""
    expr = expr.strip()

    def sub(m):
        w = m.group(0)
        if w in names:
            return '(%d)' % names[w]
        raise ValueError('unknown name %s' % w)
    py = re.sub(r'\b[A-Za-z_]\w*\b', sub, expr)
    py = re.sub(r'\b(0[xX][0-9a-fA-F]+|\d+)[uUlL]+\b', r'\1', py)
    if not re.fullmatch(r'[0-9a-fA-FxX()+\-*|&<>~ ]*', py):
        raise ValueError('not a constant: %s' % expr)
    return int(eval(py, {'__builtins__': {}}))  # pylint: disable=eval-used


# ---- the UAPI header ------------------------------------------------------

class Header:
    def __init__(self, path):
        text = strip_comments(open(path, encoding='utf-8').read())
        self.defines = {}       # name -> raw value text
        self.enums = {}         # enum name -> [(entry, value)]
        self.values = {}        # every integer name -> value
        for m in re.finditer(r'^[ \t]*#[ \t]*define[ \t]+(\w+)[ \t]+(.+?)[ \t]*$',
                             text, flags=re.M):
            self.defines[m.group(1)] = m.group(2)
        for m in re.finditer(r'\benum\s+(\w+)\s*\{(.*?)\}\s*;', text, flags=re.S):
            entries = []
            nxt = 0
            for item in m.group(2).split(','):
                item = item.strip()
                if not item:
                    continue
                if '=' in item:
                    name, val = (s.strip() for s in item.split('=', 1))
                    nxt = c_eval(val, self.values)
                else:
                    name = item
                entries.append((name, nxt))
                self.values[name] = nxt
                nxt += 1
            self.enums[m.group(1)] = entries
        for name, val in self.defines.items():
            try:
                self.values[name] = c_eval(val, self.values)
            except (ValueError, SyntaxError):
                pass


def check_enum(hdr, enum, want, what, doc=''):
    """want: [(entry name, value)]; extra header entries must be in doc."""
    got = hdr.enums.get(enum)
    if got is None:
        err('%s: enum %s not in the header' % (what, enum))
        return
    gotd = dict(got)
    for name, val in want:
        if name not in gotd:
            err('%s: spec has %s = %d, header has no %s' % (what, name, val, name))
        elif gotd[name] != val:
            err('%s: %s: spec says %d, header %d' % (what, name, val, gotd[name]))
    wanted = {n for n, _ in want}
    for name, val in got:
        if name not in wanted and name not in doc:
            err('%s: header has %s = %d, spec has no such entry (nor names it '
                'in the doc)' % (what, name, val))


def check_header(spec, hdr):
    fam = spec['name']
    famname = c_name(spec.get('c-family-name', fam + '-family-name'))
    if hdr.defines.get(famname) != '"%s"' % fam:
        err('family: spec name "%s", header %s is %s' %
            (fam, famname, hdr.defines.get(famname)))
    vername = c_name(spec.get('c-version-name', fam + '-family-version'))
    if hdr.values.get(vername) != spec.get('version', 1):
        err('family: spec version %s, header %s is %s' %
            (spec.get('version', 1), vername, hdr.defines.get(vername)))

    for d in spec.get('definitions', []):
        prefix = d.get('name-prefix', fam + '-')
        doc = d.get('doc', '')
        what = 'definition %s' % d['name']
        if d['type'] == 'const':
            name = c_name(prefix, d['name'])
            if name not in hdr.values:
                err('%s: header has no %s' % (what, name))
            elif hdr.values[name] != d['value']:
                err('%s: spec says %d, header %s is %d' %
                    (what, d['value'], name, hdr.values[name]))
            continue
        if 'enum-name' not in d:
            if 'Not defined in the UAPI header' not in doc:
                err('%s: no enum-name, and its doc does not say "Not defined '
                    'in the UAPI header"' % what)
            continue
        want = []
        val = d.get('value-start', 0)
        for i, e in enumerate(d['entries']):
            ename = e['name'] if isinstance(e, dict) else e
            if d['type'] == 'flags':
                v = 1 << (d.get('value-start', 0) + i)
                if isinstance(e, dict) and 'value' in e:
                    v = 1 << e['value']
            else:
                if isinstance(e, dict) and 'value' in e:
                    val = e['value']
                v = val
                val += 1
            want.append((c_name(prefix, ename), v))
        check_enum(hdr, d['enum-name'], want, what, doc)

    for s in spec['attribute-sets']:
        if 'subset-of' in s:
            continue
        what = 'attr-set %s' % s['name']
        prefix = s.get('name-prefix', '%s-a-%s-' % (fam, s['name']))
        want, maxname = numbered_enum(prefix, s['attributes'])
        enum = s.get('enum-name', c_name(prefix, 'attrs').lower())
        check_enum(hdr, enum, want, what)
        mx = c_name(prefix, 'max')
        if hdr.defines.get(mx, '').replace(' ', '') != '(%s-1)' % maxname:
            err('%s: header has no #define %s (%s - 1)' % (what, mx, maxname))

    ops = spec['operations']
    prefix = ops.get('name-prefix', fam + '-')
    want, _ = numbered_enum(prefix, ops['list'])
    check_enum(hdr, ops.get('enum-name', fam + '_cmd'), want, 'operations')

    for g in spec.get('mcast-groups', {}).get('list', []):
        name = c_name(g.get('c-define-name', '%s-mcgrp-%s' % (fam, g['name'])))
        if hdr.defines.get(name) != '"%s"' % g['name']:
            err('mcast-group %s: header %s is %s' %
                (g['name'], name, hdr.defines.get(name)))


def check_header_doc(sp, path):
    """The header's protocol comment gives types ("IB_MCG_A_PORT  u32"):
    they must be the spec's."""
    text = open(path, encoding='utf-8').read()
    com = ' '.join(re.findall(r'/\*.*?\*/', text, flags=re.S))
    com = re.sub(r'\n\s*\*', ' ', com)
    bycname = sp.by_cname()
    doc_type = {'16 B': 'binary'}
    pat = r'((?:IB_MCG_\w+, )*IB_MCG_\w+)[ \t]+(u8|u16|u32|u64|string|16 B|nest|flag)\b'
    for m in re.finditer(pat, com):
        t = doc_type.get(m.group(2), m.group(2))
        for c in m.group(1).split(', '):
            if c not in bycname:
                continue
            sname, a = bycname[c]
            if a['type'] != t:
                err('attr %s.%s: spec says %s, the header\'s comment %s' %
                    (sname, a['name'], a['type'], m.group(2)))


# ---- C policy tables ------------------------------------------------------

def split_top(body, sep=','):
    """Splits at sep outside (), {} and []."""
    out, depth, cur = [], 0, ''
    for ch in body:
        if ch in '({[':
            depth += 1
        elif ch in ')}]':
            depth -= 1
        if ch == sep and depth == 0:
            out.append(cur)
            cur = ''
        else:
            cur += ch
    if cur.strip():
        out.append(cur)
    return [s.strip() for s in out if s.strip()]


def c_tables(text, ctype):
    """{name: body} of 'static const struct CTYPE name[...] = { body };'."""
    tables = {}
    pat = r'\bstruct\s+%s\s+(\w+)\s*\[[^\]]*\]\s*(?:__\w+\s*)*=\s*\{' % ctype
    for m in re.finditer(pat, text):
        depth, i = 1, m.end()
        while depth:
            depth += {'{': 1, '}': -1}.get(text[i], 0)
            i += 1
        tables[m.group(1)] = text[m.end():i - 1]
    return tables


class Policy:
    """One nla_policy entry, reduced to what the spec can say."""

    def __init__(self, text, names, where):
        self.text = ' '.join(text.split())
        self.type = None
        self.checks = {}
        t = self.text
        m = re.fullmatch(r'NLA_POLICY_(\w+)\((.*)\)', t)
        if m:
            kind = m.group(1)
            args = split_top(m.group(2))
            if kind == 'EXACT_LEN':
                self.type = 'NLA_BINARY'
                self.checks['exact-len'] = c_eval(args[0], names)
                return
            self.type = args[0]
            if kind == 'MASK':
                self.checks['flags-mask'] = c_eval(args[1], names)
            elif kind == 'MAX':
                self.checks['max'] = c_eval(args[1], names)
            elif kind == 'MIN':
                self.checks['min'] = c_eval(args[1], names)
            elif kind == 'RANGE':
                self.checks['min'] = c_eval(args[1], names)
                self.checks['max'] = c_eval(args[2], names)
            elif kind == 'FULL_RANGE':
                rng = names.get('&range:' + args[1].lstrip('&').strip())
                if rng is None:
                    err('%s: range %s not found' % (where, args[1]))
                else:
                    self.checks.update(rng)
            else:
                err('%s: %s not understood by spec_check.py' % (where, t))
            return
        m = re.fullmatch(r'\{(.*)\}', t)
        if not m:
            err('%s: %s not understood by spec_check.py' % (where, t))
            return
        fields = {}
        for f in split_top(m.group(1)):
            k, v = (s.strip() for s in f.split('=', 1))
            fields[k.lstrip('.')] = v
        self.type = fields.get('type', 'NLA_UNSPEC')
        if self.type == 'NLA_NUL_STRING':
            self.type = 'NLA_STRING'
        minlen = fields.get('minlen')
        maxlen = fields.get('maxlen', fields.get('len'))
        if minlen and maxlen and self.type in ('NLA_UNSPEC', 'NLA_BINARY'):
            lo, hi = c_eval(minlen, names), c_eval(maxlen, names)
            if lo == hi:
                self.type = 'NLA_BINARY'
                self.checks['exact-len'] = lo
                return
        if maxlen:
            key = 'max-len'
            self.checks[key] = c_eval(maxlen, names)


def parse_policies(text, names, where):
    """{table: {attr enum name: Policy}} of every nla_policy table."""
    macros = {}
    for m in re.finditer(r'^#define\s+(\w+)\s+((?:.*\\\n)*.*)$', text, flags=re.M):
        macros[m.group(1)] = m.group(2).replace('\\\n', ' ')
    for m in re.finditer(r'struct\s+netlink_range_validation\s+(\w+)\s*=\s*\{(.*?)\}',
                         text, flags=re.S):
        rng = {}
        for f in split_top(m.group(2)):
            k, v = (s.strip() for s in f.split('=', 1))
            rng[k.lstrip('.')] = c_eval(v, names)
        names['&range:' + m.group(1)] = rng
    tables = {}
    for tname, body in c_tables(text, 'nla_policy').items():
        entries = {}
        for item in split_top(body):
            if item in macros:
                items = split_top(macros[item])
            else:
                items = [item]
            for it in items:
                m = re.fullmatch(r'\[\s*(\w+)\s*\]\s*=\s*(.*)', it, flags=re.S)
                if not m:
                    err('%s: %s: entry "%s" not understood' % (where, tname, it))
                    continue
                entries[m.group(1)] = Policy(m.group(2), names,
                                             '%s %s[%s]' % (where, tname, m.group(1)))
        tables[tname] = entries
    return tables


# ---- spec helpers ---------------------------------------------------------

class Spec:
    def __init__(self, spec):
        self.spec = spec
        self.fam = spec['name']
        self.sets = {s['name']: s for s in spec['attribute-sets']}
        self.defs = {d['name']: d for d in spec.get('definitions', [])}

    def attr(self, sname, aname):
        s = self.sets[sname]
        if 'subset-of' in s:
            return self.attr(s['subset-of'], aname)
        for a in s['attributes']:
            if a['name'] == aname:
                return a
        return None

    def prefix(self, sname):
        s = self.sets[sname]
        return s.get('name-prefix', '%s-a-%s-' % (self.fam, sname))

    def cname(self, sname, aname):
        return c_name(self.prefix(sname), aname)

    def by_cname(self):
        """{C name: (set, attribute)} over the sets with their own ids."""
        out = {}
        for sname, s in self.sets.items():
            if 'subset-of' in s:
                continue
            for a in s['attributes']:
                out[self.cname(sname, a['name'])] = (sname, a)
        return out

    def flags_mask(self, dname, hdr):
        d = self.defs[dname]
        prefix = d.get('name-prefix', self.fam + '-')
        mask = 0
        for e in d['entries']:
            ename = e['name'] if isinstance(e, dict) else e
            mask |= hdr.values.get(c_name(prefix, ename), 0)
        return mask

    def want_checks(self, a, hdr):
        out = {}
        for k, v in a.get('checks', {}).items():
            if k == 'flags-mask':
                v = self.flags_mask(v, hdr)
            elif isinstance(v, str):
                v = hdr.values.get(c_name(self.fam, '-', v), v)
            out[k] = v
        return out


def compare_attr(sp, hdr, sname, a, pol, where, handler_text=None):
    """Compares one policy entry with the spec's attribute."""
    name = 'attr %s.%s' % (sname, a['name'])
    want = SCALAR_NLA.get(a['type'], a['type'])
    checks = sp.want_checks(a, hdr)
    if a['type'] == 'binary' and 'exact-len' in checks:
        want = 'NLA_BINARY'
    if pol.type != want:
        err('%s: spec says %s, %s %s' % (name, a['type'], where, pol.type))
        return
    for k, v in pol.checks.items():
        if k not in checks:
            err('%s: %s checks %s %s, the spec has no %s check' %
                (name, where, k, v, k))
        elif checks[k] != v:
            err('%s: spec says %s %s, %s %s %s' % (name, k, checks[k], where, k, v))
    if handler_text is None:
        return
    for k, v in checks.items():
        if k in pol.checks:
            continue
        ev = HANDLER_CHECKS.get((sname, a['name'], k))
        if ev is None:
            err('%s: spec says %s %s, %s has no such check (nor is it in '
                'spec_check.py\'s HANDLER_CHECKS)' % (name, k, v, where))
        elif ev not in handler_text:
            err('%s: %s %s is checked in the handler by HANDLER_CHECKS, but '
                'kernel/netlink.c no longer has "%s"' % (name, k, v, ev))


# ---- the kernel -----------------------------------------------------------

def kernel_text(path):
    """netlink.c and the family's other files beside it (nl_*.c)."""
    paths = [path] + sorted(glob.glob(os.path.join(os.path.dirname(path),
                                                    'nl_*.c')))
    return '\n'.join(open(p, encoding='utf-8').read() for p in paths)


def check_kernel(sp, hdr, path):
    raw = kernel_text(path)
    text = strip_comments(raw)
    names = dict(hdr.values)
    names.update(KERNEL_CONSTS)
    policies = parse_policies(text, names, 'kernel')
    spec = sp.spec
    fam = sp.fam
    cmdprefix = spec['operations'].get('name-prefix', fam + '-')

    # the family
    fbody = c_tables(text.replace('mcg_family __ro_after_init', 'mcg_family[]'),
                     'genl_family').get('mcg_family')
    if fbody is None:
        err('kernel: struct genl_family mcg_family not found')
    else:
        fields = {}
        for f in split_top(fbody):
            if '=' in f:
                k, v = (s.strip() for s in f.split('=', 1))
                fields[k.lstrip('.')] = v
        famname = c_name(spec.get('c-family-name', fam + '-family-name'))
        vername = c_name(spec.get('c-version-name', fam + '-family-version'))
        if fields.get('name') != famname:
            err('kernel: family .name is %s, spec %s' % (fields.get('name'), famname))
        if fields.get('version') != vername:
            err('kernel: family .version is %s, spec %s' %
                (fields.get('version'), vername))

    # multicast groups, by their define
    mbody = ' '.join(c_tables(text, 'genl_multicast_group').values())
    got = set(re.findall(r'\.name\s*=\s*(\w+)', mbody))
    want = {c_name(g.get('c-define-name', '%s-mcgrp-%s' % (fam, g['name'])))
            for g in spec.get('mcast-groups', {}).get('list', [])}
    for g in sorted(want - got):
        err('kernel: mcast group %s of the spec is not registered' % g)
    for g in sorted(got - want):
        err('kernel: mcast group %s is not in the spec' % g)

    # the op table
    optabs = c_tables(text, r'(?:mcg_)?genl_split_ops')
    if len(optabs) != 1:
        err('kernel: expected one genl_split_ops table, found %d' % len(optabs))
        return
    kops = {}
    for entry in split_top(list(optabs.values())[0]):
        fields = {}
        for f in split_top(entry.strip()[1:-1]):
            k, v = (s.strip() for s in f.split('=', 1))
            fields[k.lstrip('.')] = ' '.join(v.split())
        flags = set(s.strip() for s in fields.get('flags', '').split('|'))
        kind = 'dump' if 'GENL_CMD_CAP_DUMP' in flags else 'do'
        key = (fields.get('cmd'), kind)
        if key in kops:
            err('kernel: two %s ops for %s' % (kind, key[0]))
        kops[key] = (fields, flags)

    seen = set()
    for op in spec['operations']['list']:
        cmd = c_name(cmdprefix, op['name'])
        admin = 'admin-perm' in op.get('flags', [])
        for kind in ('do', 'dump'):
            if kind not in op:
                continue
            seen.add((cmd, kind))
            what = 'op %s %s' % (op['name'], kind)
            if (cmd, kind) not in kops:
                err('%s: the kernel has no %s op for %s' % (what, kind, cmd))
                continue
            fields, flags = kops[(cmd, kind)]
            cb = '.doit' if kind == 'do' else '.dumpit'
            if cb[1:] not in fields:
                err('%s: kernel op has no %s' % (what, cb))
            if admin != ('GENL_ADMIN_PERM' in flags):
                err('%s: spec %s admin-perm, kernel flags %s' %
                    (what, 'has' if admin else 'has no', fields.get('flags')))
            setname = op.get('attribute-set', fam)
            _, maxdef = hdr_max(sp, setname)
            if fields.get('maxattr') != maxdef:
                err('%s: kernel .maxattr %s, want %s' %
                    (what, fields.get('maxattr'), maxdef))
            pname = fields.get('policy')
            if pname not in policies:
                err('%s: kernel policy %s not found' % (what, pname))
                continue
            pol = policies[pname]
            req = op[kind].get('request', {}).get('attributes', [])
            wantc = {sp.cname(setname, a): a for a in req}
            for c, aname in wantc.items():
                if c not in pol:
                    err('%s: spec accepts %s, kernel policy %s does not' %
                        (what, aname, pname))
                    continue
                a = sp.attr(setname, aname)
                compare_attr(sp, hdr, setname, a, pol[c],
                             'kernel policy %s' % pname, handler_text=raw)
            for c in pol:
                if c not in wantc:
                    err('%s: kernel policy %s accepts %s, the spec does not' %
                        (what, pname, c))
    for cmd, kind in sorted(set(kops) - seen):
        err('kernel: %s op for %s is not in the spec' % (kind, cmd))


PUT_TYPE = {'nla_put_u8': 'u8', 'nla_put_u16': 'u16', 'nla_put_u32': 'u32',
            'nla_put_u64_64bit': 'u64', 'nla_put_uint': 'u64',
            'nla_put_string': 'string', 'nla_put_flag': 'flag',
            'nla_put': 'binary', 'nla_nest_start': 'nest',
            'nla_nest_start_noflag': 'nest'}


def reply_attrs(sp):
    """{(set, attribute)} every reply of the spec may carry, nests followed."""
    want = set()
    todo = []
    for op in sp.spec['operations']['list']:
        setname = op.get('attribute-set', sp.fam)
        for kind in ('do', 'dump'):
            for aname in op.get(kind, {}).get('reply', {}).get('attributes', []):
                todo.append((setname, aname))
    while todo:
        sname, aname = todo.pop()
        a = sp.attr(sname, aname)
        if a is None:
            err('attr-set %s: no attribute %s' % (sname, aname))
            continue
        base = sp.sets[sname].get('subset-of', sname)
        if (base, aname) in want:
            continue
        want.add((base, aname))
        if a.get('type') == 'nest':
            ns = a['nested-attributes']
            for sub in sp.sets[ns]['attributes']:
                todo.append((ns, sub['name']))
    return want


def check_puts(sp, path):
    """What kernel/netlink.c puts into messages: the spec's type, and only
    attributes some reply carries; every attribute a reply carries is put."""
    text = strip_comments(kernel_text(path))
    bycname = sp.by_cname()
    put = set()
    for m in re.finditer(r'\b(nla_put\w*|nla_nest_start\w*)\s*\(\s*[\w>.-]+\s*,\s*(\w+)',
                         text):
        fn, c = m.group(1), m.group(2)
        if c not in bycname:
            continue
        sname, a = bycname[c]
        put.add((sname, a['name']))
        t = PUT_TYPE.get(fn)
        if t is None:
            err('kernel: %s(%s) not understood by spec_check.py' % (fn, c))
        elif t != a['type']:
            err('attr %s.%s: spec says %s, kernel puts it with %s()' %
                (sname, a['name'], a['type'], fn))
    want = reply_attrs(sp)
    for sname, aname in sorted(put - want):
        err('attr %s.%s: the kernel puts it, no reply of the spec carries it' %
            (sname, aname))
    for sname, aname in sorted(want - put):
        if sp.attr(sname, aname)['type'] == 'pad':
            continue
        err('attr %s.%s: a reply of the spec carries it, the kernel never '
            'puts it' % (sname, aname))


def hdr_max(sp, sname):
    prefix = sp.prefix(sname)
    return c_name('__', prefix, 'max'), c_name(prefix, 'max')


# ---- libibmcg ---------------------------------------------------------------

def check_decode(sp, hdr, path):
    text = strip_comments(open(path, encoding='utf-8').read())
    names = dict(hdr.values)
    # libibmcg's own lengths (ibmcg.h): only their being constants matters
    for n in set(re.findall(r'\bIBMCG_\w+', text)):
        names.setdefault(n, 1 << 20)
    names['IBMCG_GID_LEN'] = 16
    policies = parse_policies(text, names, 'libibmcg')
    if not policies:
        err('libibmcg: no nla_policy table in %s' % path)
    bycname = sp.by_cname()
    covered = set()
    for tname, pol in policies.items():
        for c, p in pol.items():
            if c not in bycname:
                err('libibmcg %s: %s is no attribute of the spec' % (tname, c))
                continue
            sname, a = bycname[c]
            covered.add((sname, a['name']))
            # decode tables check types and exact lengths, not ranges
            p.checks = {k: v for k, v in p.checks.items() if k == 'exact-len'}
            compare_attr(sp, hdr, sname, a, p, 'libibmcg %s' % tname)
    want = reply_attrs(sp)
    for sname, aname in sorted(want - covered):
        a = sp.attr(sname, aname)
        if a.get('multi-attr') or a['type'] == 'pad':
            continue    # each entry of a list nest is walked by hand
        err('attr %s.%s: a reply carries it, no libibmcg decode policy has it' %
            (sname, aname))


# ---- the selftest's expectations ------------------------------------------

def check_selftest(sp, path):
    """selftests/genl_policy.c's op_attrs[]: each do's and dump's request
    attributes, as masks of A(NAME) terms; 0 for a form that is absent."""
    text = strip_comments(open(path, encoding='utf-8').read())
    macros = {m.group(1): m.group(2) for m in
              re.finditer(r'^#define\s+(\w+)\s+(.*)$', text, flags=re.M)}
    roots = [op['attribute-set'] for op in sp.spec['operations']['list']
             if 'attribute-set' in op]
    prefix = sp.prefix(roots[0])

    def attrs(expr, depth=0):
        out = set()
        for term in expr.replace('(', ' ( ').replace(')', ' ) ').split('|'):
            term = ''.join(term.split())
            while term.startswith('(') and term.endswith(')') and \
                    term.count('(') == 1:
                term = term[1:-1]
            m = re.fullmatch(r'A\((\w+)\)', term)
            if m:
                out.add(c_name(prefix, m.group(1)))
            elif term == '0':
                pass
            elif term in macros and depth < 4:
                out |= attrs(macros[term].strip()[1:-1]
                             if macros[term].strip().startswith('(')
                             else macros[term], depth + 1)
            else:
                raise ValueError('genl_policy.c op_attrs: "%s" not understood' % term)
        return out

    tab = re.search(r'\}\s*op_attrs\[\]\s*=\s*\{(.*?)\n\};', text, flags=re.S)
    if not tab:
        err('genl_policy.c: no op_attrs[] table')
        return
    got = {}
    for entry in split_top(tab.group(1)):
        f = split_top(entry.strip()[1:-1])
        got[f[0]] = (attrs(f[1]), attrs(f[2]))
    cmdprefix = sp.spec['operations'].get('name-prefix', sp.fam + '-')
    for op in sp.spec['operations']['list']:
        if 'do' not in op and 'dump' not in op:
            continue
        cmd = c_name(cmdprefix, op['name'])
        if cmd not in got:
            err('genl_policy.c op_attrs: no entry for %s' % cmd)
            continue
        setname = op.get('attribute-set', sp.fam)
        for i, kind in enumerate(('do', 'dump')):
            want = {sp.cname(setname, a) for a in
                    op.get(kind, {}).get('request', {}).get('attributes', [])}
            have = got[cmd][i]
            for c in sorted(want - have):
                err('op %s %s: spec accepts %s, genl_policy.c op_attrs does '
                    'not expect it' % (op['name'], kind, c))
            for c in sorted(have - want):
                err('op %s %s: genl_policy.c op_attrs expects %s, the spec '
                    'does not accept it' % (op['name'], kind, c))
        del got[cmd]
    for cmd in sorted(got):
        err('genl_policy.c op_attrs: %s has no do or dump in the spec' % cmd)


def check(spec_path, hdr_path, kern_path, dec_path, test_path):
    """Runs every comparison; returns the differences found."""
    del errors[:]
    with open(spec_path, encoding='utf-8') as f:
        sp = Spec(yaml.safe_load(f))
    hdr = Header(hdr_path)
    for step in (lambda: check_header(sp.spec, hdr),
                 lambda: check_header_doc(sp, hdr_path),
                 lambda: check_kernel(sp, hdr, kern_path),
                 lambda: check_puts(sp, kern_path),
                 lambda: check_decode(sp, hdr, dec_path),
                 lambda: check_selftest(sp, test_path)):
        try:
            step()
        except (KeyError, ValueError, IndexError, TypeError) as e:
            err('spec_check.py cannot read the tree: %s: %s' % (type(e).__name__, e))
    return list(dict.fromkeys(errors))


FILES = ('Documentation/netlink/specs/ib_mcgroups.yaml',
         'include/uapi/ib_mcgroups.h', 'kernel/netlink.c', 'user/lib/decode.c',
         'selftests/genl_policy.c', 'kernel/nl_msg.c', 'kernel/nl_group.c',
         'kernel/nl_port.c', 'kernel/nl_owner.c', 'kernel/nl_dump.c')

# (file, text, its replacement, a message the check must then print): one
# change of each kind the check exists for, made to a copy of the tree.
MUTATIONS = (
    (2, '[IB_MCG_A_PKEY]\t\t= { .type = NLA_U16 }',
     '[IB_MCG_A_PKEY]\t\t= { .type = NLA_U32 }',
     'attr ib-mcg.pkey: spec says u16, kernel policy mcg_join_policy NLA_U32'),
    (2, 'NLA_POLICY_MAX(NLA_U8, 15),\n\t[IB_MCG_A_FLOW_LABEL]',
     'NLA_POLICY_MAX(NLA_U8, 7),\n\t[IB_MCG_A_FLOW_LABEL]',
     'attr ib-mcg.sl: spec says max 15, kernel policy mcg_join_policy max 7'),
    (2, '[IB_MCG_A_LIST_BRIEF]\t= { .type = NLA_FLAG },',
     '[IB_MCG_A_LIST_BRIEF]\t= { .type = NLA_FLAG },\n\t[IB_MCG_A_SCOPE] = { .type = NLA_U8 },',
     'kernel policy mcg_group_get_policy accepts IB_MCG_A_SCOPE, the spec does not'),
    (2, '.flags\t= GENL_ADMIN_PERM | GENL_CMD_CAP_DO,',
     '.flags\t= GENL_CMD_CAP_DO,',
     'op rejoin do: spec has admin-perm'),
    (2, 'IB_DEVICE_NAME_MAX', 'IB_DEV_NAME_MAX',
     'no longer has "IB_DEVICE_NAME_MAX"'),
    (5, 'nla_put_u16(skb, IB_MCG_A_PREV_MLID,', 'nla_put_u32(skb, IB_MCG_A_PREV_MLID,',
     'attr ib-mcg.prev-mlid: spec says u16, kernel puts it with nla_put_u32()'),
    (0, '            - prev-mlid\n', '',
     'attr ib-mcg.prev-mlid: the kernel puts it, no reply of the spec carries it'),
    (1, '\tIB_MCG_A_SGID_INDEX,\n', '\tIB_MCG_A_SGID_INDEX,\n\tIB_MCG_A_NEW,\n',
     'attr-set ib-mcg: IB_MCG_A_HOLDERS: spec says 24, header 25'),
    (1, ' *     IB_MCG_A_SGID_INDEX   u32 ', ' *     IB_MCG_A_SGID_INDEX   u16 ',
     "attr ib-mcg.sgid-index: spec says u32, the header's comment u16"),
    (1, 'IB_MCG_REASON_MLID_CHANGED\t= 19', 'IB_MCG_REASON_MLID_CHANGED\t= 20',
     'definition reason: IB_MCG_REASON_MLID_CHANGED: spec says 19, header 20'),
    (1, '#define IB_MCG_GENL_VERSION\t2', '#define IB_MCG_GENL_VERSION\t3',
     'family: spec version 2, header IB_MCG_GENL_VERSION is 3'),
    (3, '[IB_MCG_A_GROUP_ID]\t= { .type = NLA_U64 }',
     '[IB_MCG_A_GROUP_ID]\t= { .type = NLA_U32 }',
     'attr ib-mcg.group-id: spec says u64, libibmcg group_policy NLA_U32'),
    (3, '\t[IB_MCG_HOLDER_A_ID]\t\t= { .type = NLA_U64 },\n', '',
     'attr holder.id: a reply carries it, no libibmcg decode policy has it'),
    (0, '          max: 0xfffff\n', '          max: 0xffff\n',
     'attr ib-mcg.flow-label: spec says max 65535, kernel policy mcg_join_policy max 1048575'),
    (4, 'A_DEV | A(MGID) | A(LIST_BRIEF) },', 'A_DEV | A(MGID) },',
     'op group-get dump: spec accepts IB_MCG_A_LIST_BRIEF, genl_policy.c op_attrs does not'),
    (0, '            - reply-brief\n', '',
     'op join do: kernel policy mcg_join_policy accepts IB_MCG_A_REPLY_BRIEF, the spec does not'),
)


def self_test(top):
    """Each mutation of a copy of the tree must be reported; KTAP."""
    import shutil
    import tempfile

    orig = [open(os.path.join(top, f), encoding='utf-8').read() for f in FILES]
    tmp = tempfile.mkdtemp(prefix='spec_check.')
    paths = [os.path.join(tmp, f) for f in FILES]
    for p in paths:
        os.makedirs(os.path.dirname(p), exist_ok=True)
    failed = 0
    print('1..%d' % (len(MUTATIONS) + 1))
    try:
        for i, m in enumerate(((None, None, None, None),) + MUTATIONS):
            fi, old, new, want = m
            for j, p in enumerate(paths):
                text = orig[j]
                if j == fi:
                    if text.count(old) < 1:
                        text = None
                    else:
                        text = text.replace(old, new)
                if text is None:
                    break
                with open(p, 'w', encoding='utf-8') as f:
                    f.write(text)
            if fi is None:
                desc = 'the unchanged copy agrees'
            else:
                desc = '%s changed: "%s"' % (FILES[fi], want)
            if text is None:
                print('not ok %d %s # the text to change is not in %s' %
                      (i + 1, desc, FILES[fi]))
                failed += 1
                continue
            found = check(*paths[:5])
            ok = not found if fi is None else any(want in e for e in found)
            print('%sok %d %s' % ('' if ok else 'not ', i + 1, desc))
            if not ok:
                failed += 1
                for e in found or ['(no difference reported)']:
                    print('# ' + e)
    finally:
        shutil.rmtree(tmp)
    return 1 if failed else 0


def main():
    top = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                        '..', '..'))
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--top', default=top)
    ap.add_argument('--self-test', action='store_true',
                    help='check that changed copies of the files fail')
    for f in ('spec', 'header', 'kernel', 'decode', 'selftest'):
        ap.add_argument('--' + f)
    args = ap.parse_args()
    if args.self_test:
        return self_test(args.top)
    paths = [getattr(args, f) or os.path.join(args.top, FILES[i])
             for i, f in enumerate(('spec', 'header', 'kernel', 'decode',
                                    'selftest'))]
    found = check(*paths)
    for e in found:
        print(e)
    if found:
        print('%d difference(s) between %s' %
              (len(found), ', '.join(os.path.relpath(p, args.top) for p in paths)))
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
