// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mcast_join - hold IP multicast memberships with a plain socket.
 *
 *   mcast_join -I IFNAME [-t SECONDS] GROUP...
 *
 * Joins every GROUP (IPv4, e.g. 239.1.1.1, or IPv6, e.g. ff0e::1234) on
 * IFNAME, prints "joined N" on stdout and holds the memberships until it is
 * killed (SIGTERM/SIGINT) or SECONDS passed. Lets tests make the kernel
 * accept multicast for a group without the ib_mcgroups module.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <net/if.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static int join(const char *grp, unsigned int ifindex)
{
	struct ipv6_mreq m6 = { .ipv6mr_interface = ifindex };
	struct ip_mreqn m4 = { .imr_ifindex = ifindex };
	int fd;

	if (inet_pton(AF_INET, grp, &m4.imr_multiaddr) == 1) {
		fd = socket(AF_INET, SOCK_DGRAM, 0);
		if (fd < 0 || setsockopt(fd, IPPROTO_IP, IP_ADD_MEMBERSHIP,
					 &m4, sizeof(m4)))
			goto fail;
	} else if (inet_pton(AF_INET6, grp, &m6.ipv6mr_multiaddr) == 1) {
		fd = socket(AF_INET6, SOCK_DGRAM, 0);
		if (fd < 0 || setsockopt(fd, IPPROTO_IPV6, IPV6_JOIN_GROUP,
					 &m6, sizeof(m6)))
			goto fail;
	} else {
		fprintf(stderr, "mcast_join: invalid group '%s'\n", grp);
		return -1;
	}
	return fd;
fail:
	fprintf(stderr, "mcast_join: join %s: %s\n", grp, strerror(errno));
	return -1;
}

int main(int argc, char **argv)
{
	const char *ifname = NULL;
	unsigned int ifindex;
	long secs = -1;
	int c, i;

	while ((c = getopt(argc, argv, "I:t:")) != -1) {
		switch (c) {
		case 'I':
			ifname = optarg;
			break;
		case 't':
			secs = strtol(optarg, NULL, 0);
			break;
		default:
			goto usage;
		}
	}
	if (!ifname || optind == argc)
		goto usage;
	ifindex = if_nametoindex(ifname);
	if (!ifindex) {
		fprintf(stderr, "mcast_join: no interface '%s'\n", ifname);
		return 1;
	}
	for (i = optind; i < argc; i++)
		if (join(argv[i], ifindex) < 0)
			return 1;

	signal(SIGTERM, on_signal);
	signal(SIGINT, on_signal);
	printf("joined %d\n", argc - optind);
	fflush(stdout);
	while (!stop && secs != 0) {
		sleep(1);
		if (secs > 0)
			secs--;
	}
	return 0;
usage:
	fprintf(stderr, "usage: mcast_join -I IFNAME [-t SECONDS] GROUP...\n");
	return 1;
}
