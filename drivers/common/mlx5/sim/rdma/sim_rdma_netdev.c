/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * The port's netdev: on a ConnectX the netdev and the RDMA port are one
 * vport, so its MAC, MTU and administrative state are the vport's. The
 * host's netdev of a device (a veth or a dummy the harness made, named in
 * devices.conf) gets the vport's permanent MAC at attach, and from then on
 * what is set on the netdev (ip link set mtu|up|down, the ioctls a PMD
 * issues) reaches the vport: a thread of the front follows the netdevs'
 * netlink link messages, as mlx5_core follows its own netdev.
 */

#include <errno.h>
#include <linux/ethtool.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "sim_rdma.h"

static struct {
	pthread_mutex_t lock;
	pthread_t thread;
	bool started;
	int nl;	   /* Netlink socket, link messages. */
	int stop;  /* Eventfd: the thread ends. */
	int count; /* Devices followed. */
	struct sim_rdma_dev *devs[64];
} sim_nd = { .lock = PTHREAD_MUTEX_INITIALIZER, .nl = -1, .stop = -1 };

/* An interface ioctl on @name; 0 or an errno. */
static int
sim_rdma_ifioctl(const char *name, unsigned long req, struct ifreq *ifr)
{
	int fd, ret;

	snprintf(ifr->ifr_name, sizeof(ifr->ifr_name), "%s", name);
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return errno;
	ret = ioctl(fd, req, ifr) < 0 ? errno : 0;
	close(fd);
	return ret;
}

/* The netdev's MTU, state and speed, into the vport of port 1. */
static void
sim_rdma_netdev_pull(struct sim_rdma_dev *dev, unsigned int mtu,
		     unsigned int flags)
{
	struct ethtool_cmd ecmd = { .cmd = ETHTOOL_GSET };
	struct ifreq ifr;

	if (mlx5_sim_vport_mtu_set(dev->vhca, 1, (uint16_t)mtu) != 0)
		SIM_RDMA_LOG(WARNING, "%s: netdev %s MTU %u: not a vport MTU",
			     dev->ibdev->name, dev->netdev, mtu);
	mlx5_sim_vport_link_set(dev->vhca, 1, (flags & IFF_UP) != 0);
	memset(&ifr, 0, sizeof(ifr));
	ifr.ifr_data = (void *)&ecmd;
	if (sim_rdma_ifioctl(dev->netdev, SIOCETHTOOL, &ifr) == 0 &&
	    ethtool_cmd_speed(&ecmd) != (uint32_t)SPEED_UNKNOWN &&
	    ethtool_cmd_speed(&ecmd) != 0)
		mlx5_sim_vport_speed_set(dev->vhca, 1,
					 ethtool_cmd_speed(&ecmd));
}

/* Give the netdev the vport's MAC (a live change, else down and up). */
static int
sim_rdma_netdev_mac(struct sim_rdma_dev *dev, unsigned int flags)
{
	struct ifreq ifr;
	int ret;

	memset(&ifr, 0, sizeof(ifr));
	ifr.ifr_hwaddr.sa_family = 1; /* ARPHRD_ETHER */
	mlx5_sim_vhca_mac(dev->vhca, (uint8_t *)ifr.ifr_hwaddr.sa_data);
	ret = sim_rdma_ifioctl(dev->netdev, SIOCSIFHWADDR, &ifr);
	if (ret == EBUSY && (flags & IFF_UP)) {
		struct ifreq f = { .ifr_flags = (short)(flags & ~IFF_UP) };

		sim_rdma_ifioctl(dev->netdev, SIOCSIFFLAGS, &f);
		ret = sim_rdma_ifioctl(dev->netdev, SIOCSIFHWADDR, &ifr);
		f.ifr_flags = (short)flags;
		sim_rdma_ifioctl(dev->netdev, SIOCSIFFLAGS, &f);
	}
	return ret;
}

/*
 * Apply the link messages of one netlink read, walked by offsets and read
 * through copies (the buffer promises no alignment).
 */
static void
sim_rdma_netdev_msgs(const char *buf, size_t len)
{
	size_t off = 0;

	while (off + NLMSG_HDRLEN <= len) {
		struct ifinfomsg ifi;
		struct nlmsghdr nh;
		unsigned int mtu = 0;
		size_t end, at;
		int i;

		memcpy(&nh, buf + off, sizeof(nh));
		if (nh.nlmsg_len < NLMSG_HDRLEN || nh.nlmsg_len > len - off)
			break;
		end = off + nh.nlmsg_len;
		if (nh.nlmsg_type != RTM_NEWLINK ||
		    nh.nlmsg_len < NLMSG_LENGTH(sizeof(ifi)))
			goto next;
		memcpy(&ifi, buf + off + NLMSG_HDRLEN, sizeof(ifi));
		at = off + NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(ifi));
		while (at + sizeof(struct rtattr) <= end) {
			struct rtattr rta;

			memcpy(&rta, buf + at, sizeof(rta));
			if (rta.rta_len < sizeof(rta) || rta.rta_len > end - at)
				break;
			if (rta.rta_type == IFLA_MTU &&
			    rta.rta_len >= RTA_LENGTH(sizeof(mtu)))
				memcpy(&mtu, buf + at + RTA_LENGTH(0),
				       sizeof(mtu));
			at += RTA_ALIGN(rta.rta_len);
		}
		pthread_mutex_lock(&sim_nd.lock);
		for (i = 0; i < sim_nd.count; i++)
			if (sim_nd.devs[i]->ifindex == ifi.ifi_index && mtu)
				sim_rdma_netdev_pull(sim_nd.devs[i], mtu,
						     ifi.ifi_flags);
		pthread_mutex_unlock(&sim_nd.lock);
	next:
		off += NLMSG_ALIGN(nh.nlmsg_len);
	}
}

static void *
sim_rdma_netdev_main(void *arg)
{
	struct pollfd p[2] = {
		{ .fd = sim_nd.nl, .events = POLLIN },
		{ .fd = sim_nd.stop, .events = POLLIN },
	};
	char buf[16384];

	(void)arg;
	for (;;) {
		ssize_t len;

		if (poll(p, 2, -1) < 0 && errno != EINTR)
			break;
		if (p[1].revents)
			break;
		if (!(p[0].revents & POLLIN))
			continue;
		len = recv(sim_nd.nl, buf, sizeof(buf), 0);
		if (len > 0)
			sim_rdma_netdev_msgs(buf, (size_t)len);
	}
	return NULL;
}

/* The netlink socket and its thread, once (lock held). */
static int
sim_rdma_netdev_follow(void)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK,
				  .nl_groups = RTMGRP_LINK };
	int ret;

	if (sim_nd.started)
		return 0;
	sim_nd.nl = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	if (sim_nd.nl < 0)
		return errno;
	if (bind(sim_nd.nl, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		goto fail;
	sim_nd.stop = eventfd(0, EFD_CLOEXEC);
	if (sim_nd.stop < 0)
		goto fail;
	ret = pthread_create(&sim_nd.thread, NULL, sim_rdma_netdev_main, NULL);
	if (ret != 0) {
		errno = ret;
		goto fail;
	}
	sim_nd.started = true;
	return 0;
fail:
	ret = errno;
	close(sim_nd.nl);
	sim_nd.nl = -1;
	if (sim_nd.stop >= 0)
		close(sim_nd.stop);
	sim_nd.stop = -1;
	return ret;
}

int
sim_rdma_netdev_attach(struct sim_rdma_dev *dev)
{
	struct ifreq ifr;
	int ret;

	dev->ifindex = (int)if_nametoindex(dev->netdev);
	if (dev->ifindex == 0) {
		SIM_RDMA_LOG(WARNING,
			     "%s: no netdev %s in this network"
			     " namespace: the port has none",
			     dev->ibdev->name, dev->netdev);
		dev->netdev[0] = '\0';
		return 0;
	}
	memset(&ifr, 0, sizeof(ifr));
	ret = sim_rdma_ifioctl(dev->netdev, SIOCGIFFLAGS, &ifr);
	if (ret == 0)
		ret = sim_rdma_netdev_mac(dev, (unsigned short)ifr.ifr_flags);
	if (ret != 0) {
		SIM_RDMA_LOG(ERR,
			     "%s: netdev %s: cannot give it the vport's"
			     " MAC: %s",
			     dev->ibdev->name, dev->netdev, strerror(ret));
		return -ret;
	}
	pthread_mutex_lock(&sim_nd.lock);
	ret = sim_nd.count < (int)RTE_DIM(sim_nd.devs) ?
		      sim_rdma_netdev_follow() :
		      ENOSPC;
	if (ret == 0)
		sim_nd.devs[sim_nd.count++] = dev;
	pthread_mutex_unlock(&sim_nd.lock);
	if (ret != 0) {
		SIM_RDMA_LOG(ERR, "%s: netdev %s: cannot follow it: %s",
			     dev->ibdev->name, dev->netdev, strerror(ret));
		return -ret;
	}
	/* Its state now; changes from here on come by netlink. */
	memset(&ifr, 0, sizeof(ifr));
	if (sim_rdma_ifioctl(dev->netdev, SIOCGIFMTU, &ifr) == 0) {
		unsigned int mtu = (unsigned int)ifr.ifr_mtu;

		memset(&ifr, 0, sizeof(ifr));
		if (sim_rdma_ifioctl(dev->netdev, SIOCGIFFLAGS, &ifr) == 0)
			sim_rdma_netdev_pull(dev, mtu,
					     (unsigned short)ifr.ifr_flags);
	}
	return 0;
}

/* Before the model's own exit: the thread touches vHCAs. */
__attribute__((destructor)) static void
sim_rdma_netdev_fini(void)
{
	uint64_t one = 1;

	if (!sim_nd.started)
		return;
	if (write(sim_nd.stop, &one, sizeof(one)) == sizeof(one))
		pthread_join(sim_nd.thread, NULL);
}
