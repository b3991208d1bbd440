/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * The verbs datapath of the rdma-core front, as libmlx5's: ibv_post_send()
 * and ibv_post_recv() write WQEs into the rings mlx5dv_init_obj() describes
 * (control, remote address, data or inline segments; receive WQEs of data
 * segments ending with MLX5_INVALID_LKEY), update the doorbell record and
 * ring the QP's BlueFlame register with the control segment's first 8
 * bytes, a plain store the device's doorbell thread notices;
 * ibv_poll_cq() reads CQEs by their owner bit, turns them into work
 * completions (the wr_id of the WQE the CQE names, the status of its
 * syndrome) and moves the consumer counter. A QP moved to RESET has its
 * CQEs taken out of its CQs, as libmlx5 does, so that a QP used again
 * polls only its new work; a QP destroyed too, with its CQs locked from
 * before the device lets it go until its CQEs are out.
 *
 * RC QPs: SEND, SEND with immediate or invalidate, RDMA WRITE (with
 * immediate), RDMA READ, compare and swap, fetch and add, local
 * invalidation, memory window binds; signalled, solicited and inline
 * flags. Not carried (EINVAL, as libmlx5 for an opcode its QP type
 * lacks): masked and extended atomics, TSO.
 *
 * Completion events: a CQ created on a completion channel is armed by
 * ibv_req_notify_cq() (the device raises one event at its next CQE, or
 * at once if one is waiting); the kernel's part queues the event on the
 * channel (its eventfd readable while one waits), ibv_get_cq_event()
 * hands them out in order, and a CQ destroyed takes its unread events
 * with it. Solicited-only arming waits for a solicited receive or an
 * error completion.
 */

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/queue.h>
#include <unistd.h>

#include <rte_atomic.h>

#include "sim_rdma.h"

#define SIM_DP_WQEBB 64
/* The largest send WQE: 63 segments of 16 bytes (ds is 6 bits). */
#define SIM_DP_WQE_MAX (63 * 16)

struct sim_rdma_cq {
	struct mlx5dv_cq dv;
	pthread_spinlock_t lock;
	uint32_t ci;	   /* Consumer counter. */
	uint32_t events;   /* Events read through its channel (its lock). */
	struct ibv_wc cur; /* ibv_cq_ex: the completion being read. */
};

/* A completion channel: the events queued, the CQ of each. */
struct sim_rdma_event {
	struct ibv_cq *cq;
	TAILQ_ENTRY(sim_rdma_event) next;
};

struct sim_rdma_channel {
	struct ibv_comp_channel ch;
	pthread_mutex_t lock;
	TAILQ_HEAD(, sim_rdma_event) events;
};

/*
 * A receive queue as libmlx5 keeps it (a QP's, or a WQ's): its ring, the
 * receive counter of its doorbell record, the wr_id of each WQE.
 */
struct sim_dp_rq {
	uint8_t *buf;
	__be32 *dbrec; /* The receive counter. */
	uint32_t wqe_cnt, stride;
	uint32_t sge; /* Segments of a WQE. */
	uint32_t head, tail;
	uint64_t *wrid;
	pthread_spinlock_t lock;
};

struct sim_rdma_qp {
	struct mlx5dv_qp dv;
	struct ibv_qp *qp;
	pthread_spinlock_t sq_lock;
	uint32_t sq_pi;	   /* Basic blocks posted. */
	uint32_t sq_tail;  /* Basic blocks completed. */
	uint64_t *sq_wrid; /* By the WQE's first block. */
	uint32_t *sq_next; /* The counter after that WQE. */
	uint8_t *sq_op;	   /* Its work completion's opcode. */
	struct sim_dp_rq rq;
	/* Its receive queue's user index (a raw QP's RQ), 0: none. */
	uint32_t uidx;
	/*
	 * A raw QP on a device with raw checksums (IBV_DEVICE_RAW_IP_CSUM):
	 * libmlx5's MLX5_CSUM_SUPPORT_RAW_OVER_ETH and MLX5_RX_CSUM_VALID.
	 */
	bool raw_csum;
	uint32_t max_send_sge, max_inline;
	uint32_t bf_off; /* BlueFlame register alternated. */
	bool sig_all;
	bool ex; /* Created with send operations (ibv_qp_ex). */
	/* The WQE being built (seg NULL: none), its operation and data. */
	struct {
		uint8_t bytes[SIM_DP_WQE_MAX] __rte_aligned(16);
		uint8_t *seg;
		uint64_t wr_id;
		int opcode;
		uint8_t wc_op; /* enum ibv_wc_opcode of its completion. */
		/* ibv_qp_ex: the datagram segment's place, setters to come. */
		uint8_t *av;
		/* An XRC initiator's XRC segment, its SRQ to set (or NULL). */
		uint8_t *xrc;
		unsigned int setters;
		uint32_t mkey_desc; /* An mkey UMR's key: its entries. */
	} w;
	uint8_t last[8];  /* The last WQE's first 8 bytes: the doorbell. */
	uint8_t fm_cache; /* The next WQE's fence (after a UMR: small). */
	bool pending;	  /* WQEs put in the ring since the last doorbell. */
	uint32_t x_start; /* ibv_wr_start()'s send counter. */
	int x_err;	  /* The batch's first error. */
	/* mlx5dv_qp_ex of a QP made with mlx5dv send operations. */
	struct mlx5dv_qp_ex dvx;
	struct ibv_qp_ex *qpx; /* Its ibv_qp_ex (send operations), or NULL. */
	uint64_t dv_ops;
};

/* @r over a ring of @n WQEs of @stride bytes at @buf: 0 or ENOMEM. */
static int
sim_dp_rq_init(struct sim_dp_rq *r, void *buf, __be32 *dbrec, uint32_t n,
	       uint32_t stride)
{
	r->buf = buf;
	r->dbrec = dbrec;
	r->wqe_cnt = n;
	r->stride = stride;
	r->sge = stride / sizeof(struct mlx5_wqe_data_seg);
	r->wrid = calloc(n + 1, sizeof(*r->wrid));
	if (r->wrid == NULL)
		return ENOMEM;
	pthread_spin_init(&r->lock, PTHREAD_PROCESS_PRIVATE);
	return 0;
}

static void
sim_dp_rq_fini(struct sim_dp_rq *r)
{
	if (r->wrid != NULL)
		pthread_spin_destroy(&r->lock);
	free(r->wrid);
}

/* Start @r over (its lock held): nothing posted, the record 0. */
static void
sim_dp_rq_reset(struct sim_dp_rq *r)
{
	r->head = 0;
	r->tail = 0;
	__atomic_store_n(r->dbrec, 0, __ATOMIC_RELEASE);
}

/*
 * libmlx5's receive posting: a WQE per work request (its data segments,
 * empty ones left out, ending with MLX5_INVALID_LKEY when it has room;
 * ENOMEM when the ring is full, EINVAL for too many segments), then the
 * receive counter of the doorbell record.
 */
static int
sim_dp_rq_post(struct sim_dp_rq *r, struct ibv_recv_wr *wr,
	       struct ibv_recv_wr **bad)
{
	bool posted = false;
	int err = 0;

	pthread_spin_lock(&r->lock);
	for (; wr != NULL; wr = wr->next) {
		uint32_t n = r->wqe_cnt, k = 0;
		struct mlx5_wqe_data_seg *d;
		int i;

		if (n == 0 || r->head - r->tail >= n) {
			err = ENOMEM;
			break;
		}
		if (wr->num_sge < 0 || (uint32_t)wr->num_sge > r->sge) {
			err = EINVAL;
			break;
		}
		d = (void *)(r->buf + (size_t)(r->head & (n - 1)) * r->stride);
		for (i = 0; i < wr->num_sge; i++) {
			if (wr->sg_list[i].length == 0)
				continue;
			d[k].byte_count = htobe32(wr->sg_list[i].length);
			d[k].lkey = htobe32(wr->sg_list[i].lkey);
			d[k].addr = htobe64(wr->sg_list[i].addr);
			k++;
		}
		if (k < r->sge) {
			d[k].byte_count = 0;
			d[k].lkey = htobe32(MLX5_INVALID_LKEY);
			d[k].addr = 0;
		}
		r->wrid[r->head & (n - 1)] = wr->wr_id;
		r->head++;
		posted = true;
	}
	if (posted) {
		rte_io_wmb();
		/* The device may read it at any time (a store it sees). */
		__atomic_store_n(r->dbrec, htobe32(r->head & 0xffff),
				 __ATOMIC_RELEASE);
	}
	pthread_spin_unlock(&r->lock);
	if (err != 0)
		*bad = wr;
	return err;
}

/* The work request of @r's next receive completion. */
static uint64_t
sim_dp_rq_next(struct sim_dp_rq *r)
{
	return r->wrid[r->tail++ & (r->wqe_cnt - 1)];
}

static void
sim_dp_qp_free(void *p)
{
	struct sim_rdma_qp *q = p;

	pthread_spin_destroy(&q->sq_lock);
	sim_dp_rq_fini(&q->rq);
	free(q->sq_wrid);
	free(q->sq_next);
	free(q->sq_op);
	free(q);
}

/* A WQ's provider state (libmlx5's RWQ): its receive queue. */
struct sim_rdma_wq {
	struct sim_dp_rq rq;
};

static void
sim_dp_wq_free(void *p)
{
	struct sim_rdma_wq *w = p;

	sim_dp_rq_fini(&w->rq);
	free(w);
}

static struct sim_rdma_wq *
sim_dp_wq(struct ibv_wq *wq)
{
	struct mlx5_sim_vobj *v = mlx5_sim_vobj_of(wq, MLX5_SIM_OBJ_RQ);

	return v != NULL ? v->prov : NULL;
}

static void
sim_dp_cq_free(void *p)
{
	struct sim_rdma_cq *c = p;

	pthread_spin_destroy(&c->lock);
	free(c);
}

/*
 * The consumer counter moved by @n (the CQ's lock held): an atomic
 * store, as ibv_req_notify_cq() reads it without the lock.
 */
static void
sim_dp_ci_add(struct sim_rdma_cq *c, uint32_t n)
{
	__atomic_store_n(&c->ci, c->ci + n, __ATOMIC_RELEASE);
}

/* An SRQ's provider state (libmlx5's): its free list and wr_ids. */
struct sim_rdma_srq {
	struct mlx5dv_srq dv;
	pthread_spinlock_t lock;
	uint64_t *wrid;
	uint32_t max;	  /* WQEs in the ring (a power of two). */
	uint32_t max_gs;  /* Data segments a WQE takes. */
	uint16_t head;	  /* The next free WQE. */
	uint16_t tail;	  /* The last free WQE. */
	uint16_t counter; /* WQEs posted: the doorbell record's value. */
};

static void
sim_dp_srq_free(void *p)
{
	struct sim_rdma_srq *r = p;

	pthread_spin_destroy(&r->lock);
	free(r->wrid);
	free(r);
}

static struct sim_rdma_srq *
sim_dp_srq(struct ibv_srq *srq)
{
	struct mlx5_sim_vobj *v = mlx5_sim_vobj_of(srq, MLX5_SIM_OBJ_SRQ);

	return v != NULL ? v->prov : NULL;
}

static void sim_dp_srq_done(struct sim_rdma_srq *r, uint16_t idx,
			    struct ibv_wc *wc);

/* WQE @idx of SRQ @r: its next segment, the data segments after it. */
static struct mlx5_wqe_srq_next_seg *
sim_dp_srq_wqe(struct sim_rdma_srq *r, uint32_t idx)
{
	return (void *)((uint8_t *)r->dv.buf + (size_t)idx * r->dv.stride);
}

int
sim_rdma_dp_srq_init(struct ibv_srq *srq, uint32_t max_sge)
{
	struct mlx5_sim_vobj *v = mlx5_sim_vobj_of(srq, MLX5_SIM_OBJ_SRQ);
	struct mlx5dv_obj obj;
	struct sim_rdma_srq *r;
	uint32_t i;

	if (v == NULL)
		return EINVAL;
	r = calloc(1, sizeof(*r));
	if (r == NULL)
		return ENOMEM;
	obj.srq.in = srq;
	obj.srq.out = &r->dv;
	r->dv.comp_mask = 0;
	if (mlx5_sim_dv_init_obj(&obj, MLX5DV_OBJ_SRQ) != 0) {
		free(r);
		return EINVAL;
	}
	r->max = r->dv.tail + 1;
	r->max_gs = RTE_MAX(max_sge, 1u);
	r->wrid = calloc(r->max, sizeof(*r->wrid));
	if (r->wrid == NULL) {
		free(r);
		return ENOMEM;
	}
	/* Every WQE free, each naming the next (libmlx5's ring). */
	for (i = 0; i < r->max; i++)
		sim_dp_srq_wqe(r, i)->next_wqe_index =
			htobe16((uint16_t)((i + 1) & (r->max - 1)));
	r->head = 0;
	r->tail = (uint16_t)(r->max - 1);
	pthread_spin_init(&r->lock, PTHREAD_PROCESS_PRIVATE);
	v->prov = r;
	v->prov_free = sim_dp_srq_free;
	return 0;
}

/*
 * libmlx5's post_srq_recv: each WQE from the head of the free list (the
 * list full when head meets tail: ENOMEM), its data segments after the
 * next segment, ending with MLX5_INVALID_LKEY; the doorbell record the
 * count of WQEs posted.
 */
int
sim_rdma_post_srq_recv(struct ibv_srq *srq, struct ibv_recv_wr *wr,
		       struct ibv_recv_wr **bad)
{
	struct sim_rdma_srq *r = sim_dp_srq(srq);
	bool posted = false;
	int err = 0;

	if (r == NULL) {
		*bad = wr;
		return EINVAL;
	}
	pthread_spin_lock(&r->lock);
	for (; wr != NULL; wr = wr->next) {
		struct mlx5_wqe_srq_next_seg *next;
		struct mlx5_wqe_data_seg *d;
		int i;

		if (wr->num_sge < 0 || (uint32_t)wr->num_sge > r->max_gs) {
			err = EINVAL;
			break;
		}
		if (r->head == r->tail) {
			err = ENOMEM;
			break;
		}
		r->wrid[r->head] = wr->wr_id;
		next = sim_dp_srq_wqe(r, r->head);
		r->head = be16toh(next->next_wqe_index);
		d = (void *)(next + 1);
		for (i = 0; i < wr->num_sge; i++) {
			d[i].byte_count = htobe32(wr->sg_list[i].length);
			d[i].lkey = htobe32(wr->sg_list[i].lkey);
			d[i].addr = htobe64(wr->sg_list[i].addr);
		}
		if ((uint32_t)i < r->max_gs) {
			d[i].byte_count = 0;
			d[i].lkey = htobe32(MLX5_INVALID_LKEY);
			d[i].addr = 0;
		}
		r->counter++;
		posted = true;
	}
	if (posted) {
		rte_io_wmb();
		__atomic_store_n(&r->dv.dbrec[0], htobe32(r->counter),
				 __ATOMIC_RELEASE);
	}
	pthread_spin_unlock(&r->lock);
	if (err != 0)
		*bad = wr;
	return err;
}

static struct sim_rdma_cq *
sim_dp_cq(struct ibv_cq *cq)
{
	struct mlx5_sim_vobj *v = mlx5_sim_vobj_of(cq, MLX5_SIM_OBJ_CQ);

	return v != NULL ? v->prov : NULL;
}

static struct sim_rdma_qp *
sim_dp_qp(struct ibv_qp *qp)
{
	struct mlx5_sim_vobj *v = mlx5_sim_vobj_of(qp, MLX5_SIM_OBJ_QP);

	return v != NULL ? v->prov : NULL;
}

static struct sim_rdma_channel *
sim_dp_channel(struct ibv_comp_channel *ch)
{
	return container_of(ch, struct sim_rdma_channel, ch);
}

/*
 * The channel's eventfd is readable exactly while an event waits: set
 * when the first is queued, drained when the last is taken (both under
 * the channel's lock, so the read never blocks). The list is the truth;
 * the fd only wakes up poll() and a blocking ibv_get_cq_event().
 */
static void
sim_dp_channel_took(struct sim_rdma_channel *c)
{
	uint64_t v;

	if (TAILQ_EMPTY(&c->events) &&
	    read(c->ch.fd, &v, sizeof(v)) != sizeof(v))
		SIM_RDMA_LOG(ERR, "completion channel: eventfd not drained");
}

/*
 * An event of @arg's CQ (the device's, card lock held): queued on its
 * channel. An event that cannot be queued (no memory) is lost, as a
 * kernel event queue overrun loses it (logged).
 */
static void
sim_dp_cq_event(void *arg)
{
	struct ibv_cq *cq = arg;
	struct sim_rdma_channel *c = sim_dp_channel(cq->channel);
	struct sim_rdma_event *e = malloc(sizeof(*e));
	uint64_t one = 1;

	if (e == NULL) {
		SIM_RDMA_LOG(ERR, "CQ %u: completion event lost (no memory)",
			     cq->handle);
		return;
	}
	e->cq = cq;
	pthread_mutex_lock(&c->lock);
	if (TAILQ_EMPTY(&c->events) &&
	    write(c->ch.fd, &one, sizeof(one)) != sizeof(one))
		SIM_RDMA_LOG(ERR, "CQ %u: completion event not signalled",
			     cq->handle);
	TAILQ_INSERT_TAIL(&c->events, e, next);
	pthread_mutex_unlock(&c->lock);
}

struct ibv_comp_channel *
sim_rdma_channel_create(struct ibv_context *ctx)
{
	struct sim_rdma_channel *c = calloc(1, sizeof(*c));

	if (c == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	c->ch.fd = eventfd(0, EFD_CLOEXEC);
	if (c->ch.fd < 0) {
		free(c);
		return NULL;
	}
	c->ch.context = ctx;
	pthread_mutex_init(&c->lock, NULL);
	TAILQ_INIT(&c->events);
	return &c->ch;
}

int
sim_rdma_channel_destroy(struct ibv_comp_channel *ch)
{
	struct sim_rdma_channel *c = sim_dp_channel(ch);
	struct sim_rdma_event *e;

	if (__atomic_load_n(&ch->refcnt, __ATOMIC_RELAXED) != 0)
		return EBUSY;
	while ((e = TAILQ_FIRST(&c->events)) != NULL) {
		TAILQ_REMOVE(&c->events, e, next);
		free(e);
	}
	close(ch->fd);
	pthread_mutex_destroy(&c->lock);
	free(c);
	return 0;
}

int
sim_rdma_channel_get(struct ibv_comp_channel *ch, struct ibv_cq **cq,
		     void **cq_context)
{
	struct sim_rdma_channel *c = sim_dp_channel(ch);
	struct pollfd pfd = { .fd = ch->fd, .events = POLLIN };
	struct sim_rdma_event *e;
	struct sim_rdma_cq *q;

	for (;;) {
		pthread_mutex_lock(&c->lock);
		e = TAILQ_FIRST(&c->events);
		if (e != NULL) {
			TAILQ_REMOVE(&c->events, e, next);
			sim_dp_channel_took(c);
			/* Counted as reported while its CQ cannot go. */
			q = sim_dp_cq(e->cq);
			if (q != NULL)
				q->events++;
			pthread_mutex_unlock(&c->lock);
			break;
		}
		pthread_mutex_unlock(&c->lock);
		/* Blocks unless the fd is non-blocking, as the kernel's. */
		if (fcntl(ch->fd, F_GETFL) & O_NONBLOCK) {
			errno = EAGAIN;
			return -1;
		}
		if (poll(&pfd, 1, -1) < 0)
			return -1;
	}
	*cq = e->cq;
	*cq_context = e->cq->cq_context;
	free(e);
	return 0;
}

/*
 * Events of @cq that can no longer come (the device's handler is off):
 * those not read yet dropped, the count of those read returned.
 */
static uint32_t
sim_dp_channel_purge(struct ibv_comp_channel *ch, struct ibv_cq *cq)
{
	struct sim_rdma_channel *c = sim_dp_channel(ch);
	struct sim_rdma_cq *q = sim_dp_cq(cq);
	struct sim_rdma_event *e, *n;
	bool dropped = false;
	uint32_t reported;

	pthread_mutex_lock(&c->lock);
	for (e = TAILQ_FIRST(&c->events); e != NULL; e = n) {
		n = TAILQ_NEXT(e, next);
		if (e->cq != cq)
			continue;
		TAILQ_REMOVE(&c->events, e, next);
		free(e);
		dropped = true;
	}
	if (dropped)
		sim_dp_channel_took(c);
	reported = q != NULL ? q->events : 0;
	pthread_mutex_unlock(&c->lock);
	return reported;
}

int
sim_rdma_dp_cq_destroy(struct ibv_cq *cq)
{
	struct mlx5_sim_vobj *v = mlx5_sim_vobj_of(cq, MLX5_SIM_OBJ_CQ);
	struct ibv_comp_channel *channel = cq->channel;
	uint32_t reported;
	int err;

	if (v == NULL)
		return EINVAL;
	/* ib_core: a CQ a QP still uses is refused before anything. */
	if (__atomic_load_n(&v->users, __ATOMIC_RELAXED) != 0)
		return EBUSY;
	if (channel == NULL)
		return mlx5_sim_destroy_cq(cq);
	/*
	 * As the kernel and libibverbs: no further event (the handler off
	 * under the device's lock), those not read dropped, then the call
	 * waits until every event read has been acknowledged.
	 */
	mlx5_sim_cq_set_event(cq, NULL, NULL);
	reported = sim_dp_channel_purge(channel, cq);
	pthread_mutex_lock(&cq->mutex);
	while (cq->comp_events_completed != reported)
		pthread_cond_wait(&cq->cond, &cq->mutex);
	pthread_mutex_unlock(&cq->mutex);
	err = mlx5_sim_destroy_cq(cq);
	if (err != 0) {
		/* Used again meanwhile: it keeps its events. */
		mlx5_sim_cq_set_event(cq, sim_dp_cq_event, cq);
		return err;
	}
	__atomic_fetch_sub(&channel->refcnt, 1, __ATOMIC_RELAXED);
	return 0;
}

int
ibv_resize_cq(struct ibv_cq *cq, int cqe)
{
	struct sim_rdma_cq *c = sim_dp_cq(cq);
	struct mlx5dv_obj obj = { .cq = { .in = cq, .out = &c->dv } };
	int err;

	if (c == NULL)
		return EINVAL;
	/* The work rung so far completed, as on hardware. */
	mlx5_sim_doorbell_scan();
	/* Polling waits while the ring changes under it. */
	pthread_spin_lock(&c->lock);
	err = mlx5_sim_resize_cq(cq, cqe, c->ci);
	if (err == 0)
		err = mlx5_sim_dv_init_obj(&obj, MLX5DV_OBJ_CQ);
	pthread_spin_unlock(&c->lock);
	return err;
}

int
sim_rdma_req_notify_cq(struct ibv_cq *cq, int solicited_only)
{
	struct sim_rdma_cq *c = sim_dp_cq(cq);
	uint32_t ci;

	/*
	 * Solicited-only arming: the next receive of a message that asked
	 * for a solicited event, or the next error completion (IBTA).
	 */
	if (c == NULL || cq->channel == NULL)
		return EINVAL;
	/*
	 * The consumer counter as it stands, without the CQ's lock (as
	 * libmlx5's arm): a thread inside ibv_start_poll() holds it.
	 */
	ci = __atomic_load_n(&c->ci, __ATOMIC_ACQUIRE);
	return mlx5_sim_cq_arm(cq, ci, solicited_only != 0);
}

int
sim_rdma_dp_cq_init(struct ibv_cq *cq)
{
	struct mlx5_sim_vobj *v = mlx5_sim_vobj_of(cq, MLX5_SIM_OBJ_CQ);
	struct sim_rdma_cq *c;
	struct mlx5dv_obj obj;

	if (v == NULL)
		return EINVAL;
	c = calloc(1, sizeof(*c));
	if (c == NULL)
		return ENOMEM;
	obj.cq.in = cq;
	obj.cq.out = &c->dv;
	if (mlx5_sim_dv_init_obj(&obj, MLX5DV_OBJ_CQ) != 0) {
		free(c);
		return EINVAL;
	}
	pthread_spin_init(&c->lock, PTHREAD_PROCESS_PRIVATE);
	v->prov = c;
	v->prov_free = sim_dp_cq_free;
	/* The kernel's completion handler: events to the CQ's channel. */
	return cq->channel != NULL ?
		       mlx5_sim_cq_set_event(cq, sim_dp_cq_event, cq) :
		       0;
}

static void sim_qpx_init(struct sim_rdma_qp *q, struct ibv_qp_ex *qpx);
static void sim_dvx_init(struct sim_rdma_qp *q);

int
sim_rdma_dp_qp_init(struct ibv_qp *qp, const struct ibv_qp_init_attr_ex *attr,
		    uint64_t dv_ops)
{
	struct mlx5_sim_vobj *v = mlx5_sim_vobj_of(qp, MLX5_SIM_OBJ_QP);
	struct sim_rdma_qp *q;
	struct mlx5dv_obj obj;

	if (v == NULL)
		return EINVAL;
	q = calloc(1, sizeof(*q));
	if (q == NULL)
		return ENOMEM;
	obj.qp.in = qp;
	obj.qp.out = &q->dv;
	q->dv.comp_mask = 0;
	if (mlx5_sim_dv_init_obj(&obj, MLX5DV_OBJ_QP) != 0) {
		free(q);
		return EINVAL;
	}
	q->qp = qp;
	q->uidx = v->uidx;
	if (v->raw) {
		struct ibv_device_attr_ex da;

		q->raw_csum =
			mlx5_sim_query_device_ex(qp->context, NULL, &da) == 0 &&
			(da.orig_attr.device_cap_flags &
			 IBV_DEVICE_RAW_IP_CSUM);
	}
	q->sq_wrid = calloc(q->dv.sq.wqe_cnt, sizeof(*q->sq_wrid));
	q->sq_next = calloc(q->dv.sq.wqe_cnt, sizeof(*q->sq_next));
	q->sq_op = calloc(q->dv.sq.wqe_cnt, sizeof(*q->sq_op));
	if (q->sq_wrid == NULL || q->sq_next == NULL || q->sq_op == NULL ||
	    sim_dp_rq_init(&q->rq, q->dv.rq.buf, &q->dv.dbrec[MLX5_RCV_DBR],
			   q->dv.rq.wqe_cnt, q->dv.rq.stride) != 0) {
		sim_dp_qp_free(q);
		return ENOMEM;
	}
	q->max_send_sge = attr->cap.max_send_sge;
	q->max_inline = attr->cap.max_inline_data;
	q->sig_all = attr->sq_sig_all != 0;
	/* mlx5dv's operations come with ibv_qp_ex's (libmlx5). */
	if ((attr->comp_mask & IBV_QP_INIT_ATTR_SEND_OPS_FLAGS) || dv_ops != 0)
		sim_qpx_init(q, &v->ib.qpx);
	q->dv_ops = dv_ops;
	if (dv_ops != 0)
		sim_dvx_init(q);
	pthread_spin_init(&q->sq_lock, PTHREAD_PROCESS_PRIVATE);
	v->prov = q;
	v->prov_free = sim_dp_qp_free;
	return 0;
}

/* The CQE at consumer counter @ci if software owns it, else NULL. */
static struct mlx5_cqe64 *
sim_dp_cqe(struct sim_rdma_cq *c, uint32_t ci)
{
	struct mlx5_cqe64 *cqe =
		(struct mlx5_cqe64 *)(void *)((uint8_t *)c->dv.buf +
					      (size_t)(ci &
						       (c->dv.cqe_cnt - 1)) *
						      c->dv.cqe_size);
	uint8_t op_own = __atomic_load_n(&cqe->op_own, __ATOMIC_ACQUIRE);

	if ((op_own >> 4) == MLX5_CQE_INVALID ||
	    ((op_own & MLX5_CQE_OWNER_MASK) ^ !!(ci & c->dv.cqe_cnt)))
		return NULL;
	return cqe;
}

/* The CQE's QP number (good and error CQEs keep it at one place). */
static uint32_t
sim_dp_cqe_qpn(const struct mlx5_cqe64 *cqe)
{
	return be32toh(cqe->sop_drop_qpn) & 0xffffff;
}

/*
 * The user index a CQE carries: a receive CQE of an RQ (a raw QP's, a
 * WQ's) or of an XRC SRQ, good or in error; 0: none (a send CQE, an RC,
 * UC or UD QP's receive).
 */
static uint32_t
sim_dp_cqe_uidx(const struct mlx5_cqe64 *cqe)
{
	uint8_t op = cqe->op_own >> 4;

	if (op == MLX5_CQE_REQ || op == MLX5_CQE_REQ_ERR)
		return 0;
	/* Good and error CQEs keep it at one place. */
	return be32toh(cqe->srqn_uidx) & 0xffffff;
}

/*
 * Is @cqe of the queue of user index @uidx, or (carrying none) of QP
 * @qpn? A receive CQE of an RQ names no QP: its QP field is the flow
 * tag.
 */
static bool
sim_dp_cqe_of(const struct mlx5_cqe64 *cqe, uint32_t qpn, uint32_t uidx)
{
	uint32_t u = sim_dp_cqe_uidx(cqe);

	return u != 0 ? u == uidx : sim_dp_cqe_qpn(cqe) == qpn;
}

/*
 * Take the CQEs of QP @qpn (and of user index @uidx: a raw QP's receive
 * queue, a WQ) out of CQ @c, its lock held (as libmlx5 cleans a CQ):
 * those after them move up, keeping the owner bit of the slot they land
 * in.
 */
static void
sim_dp_cq_clean_locked(struct sim_rdma_cq *c, uint32_t qpn, uint32_t uidx,
		       struct sim_rdma_srq *srq)
{
	uint32_t prod, nfreed = 0;

	if (c == NULL)
		return;
	for (prod = c->ci;
	     prod - c->ci < c->dv.cqe_cnt && sim_dp_cqe(c, prod) != NULL;
	     prod++)
		;
	while ((int32_t)(--prod - c->ci) >= 0) {
		struct mlx5_cqe64 *cqe = sim_dp_cqe(c, prod);
		struct mlx5_cqe64 *dst;
		uint8_t owner;

		if (sim_dp_cqe_of(cqe, qpn, uidx)) {
			uint8_t op = cqe->op_own >> 4;
			struct ibv_wc wc;

			/* A receive of an SRQ: its WQE back to the SRQ. */
			if (srq != NULL && (op == MLX5_CQE_RESP_SEND ||
					    op == MLX5_CQE_RESP_SEND_IMM ||
					    op == MLX5_CQE_RESP_SEND_INV ||
					    op == MLX5_CQE_RESP_WR_IMM ||
					    op == MLX5_CQE_RESP_ERR))
				sim_dp_srq_done(srq, be16toh(cqe->wqe_counter),
						&wc);
			nfreed++;
		} else if (nfreed != 0) {
			dst = (struct mlx5_cqe64
				       *)(void *)((uint8_t *)c->dv.buf +
						  (size_t)((prod + nfreed) &
							   (c->dv.cqe_cnt -
							    1)) *
							  c->dv.cqe_size);
			owner = dst->op_own & MLX5_CQE_OWNER_MASK;
			memcpy(dst, cqe, sizeof(*cqe));
			dst->op_own =
				(uint8_t)((dst->op_own & ~MLX5_CQE_OWNER_MASK) |
					  owner);
		}
	}
	if (nfreed != 0) {
		sim_dp_ci_add(c, nfreed);
		rte_io_wmb();
		__atomic_store_n(&c->dv.dbrec[0], htobe32(c->ci & 0xffffff),
				 __ATOMIC_RELEASE);
	}
}

/* The same, @cq's lock taken. */
static void
sim_dp_cq_clean(struct ibv_cq *cq, uint32_t qpn, uint32_t uidx,
		struct sim_rdma_srq *srq)
{
	struct sim_rdma_cq *c = cq != NULL ? sim_dp_cq(cq) : NULL;

	if (c == NULL)
		return;
	pthread_spin_lock(&c->lock);
	sim_dp_cq_clean_locked(c, qpn, uidx, srq);
	pthread_spin_unlock(&c->lock);
}

void
sim_rdma_dp_qp_reset(struct ibv_qp *qp)
{
	struct sim_rdma_qp *q = sim_dp_qp(qp);

	if (q == NULL)
		return;
	sim_dp_cq_clean(qp->recv_cq, qp->qp_num, q->uidx,
			qp->srq != NULL ? sim_dp_srq(qp->srq) : NULL);
	if (qp->send_cq != qp->recv_cq)
		sim_dp_cq_clean(qp->send_cq, qp->qp_num, q->uidx, NULL);
	pthread_spin_lock(&q->sq_lock);
	pthread_spin_lock(&q->rq.lock);
	q->sq_pi = 0;
	q->sq_tail = 0;
	sim_dp_rq_reset(&q->rq);
	__atomic_store_n(&q->dv.dbrec[MLX5_SND_DBR], 0, __ATOMIC_RELEASE);
	pthread_spin_unlock(&q->rq.lock);
	pthread_spin_unlock(&q->sq_lock);
}

int
sim_rdma_dp_qp_destroy(struct ibv_qp *qp)
{
	struct sim_rdma_cq *a =
		qp->recv_cq != NULL ? sim_dp_cq(qp->recv_cq) : NULL;
	struct sim_rdma_cq *b =
		qp->send_cq != NULL ? sim_dp_cq(qp->send_cq) : NULL;
	struct sim_rdma_srq *srq = qp->srq != NULL ? sim_dp_srq(qp->srq) : NULL;
	struct sim_rdma_cq *rcq = a;
	struct sim_rdma_qp *q = sim_dp_qp(qp);
	uint32_t qpn = qp->qp_num, uidx = q != NULL ? q->uidx : 0;
	int err;

	/*
	 * As libmlx5: the QP's CQs locked (in one order, so two destroys
	 * cannot deadlock) while the device destroys it, so that no poll
	 * finds its CQEs meanwhile; then its CQEs leave them. Its rings and
	 * doorbell records stay as they were until the device has let go.
	 */
	if (a == b)
		b = NULL;
	else if (a != NULL && b != NULL && (uintptr_t)a > (uintptr_t)b)
		RTE_SWAP(a, b);
	if (a != NULL)
		pthread_spin_lock(&a->lock);
	if (b != NULL)
		pthread_spin_lock(&b->lock);
	err = mlx5_sim_destroy_qp(qp);
	if (err == 0) {
		/* An SRQ's WQEs of its receive CQ's CQEs go back. */
		sim_dp_cq_clean_locked(a, qpn, uidx, a == rcq ? srq : NULL);
		sim_dp_cq_clean_locked(b, qpn, uidx, b == rcq ? srq : NULL);
	}
	if (b != NULL)
		pthread_spin_unlock(&b->lock);
	if (a != NULL)
		pthread_spin_unlock(&a->lock);
	return err;
}

/* The mlx5 opcode of a send work request, or -1 if not carried. */
static int
sim_dp_opcode(enum ibv_wr_opcode op)
{
	switch (op) {
	case IBV_WR_SEND:
		return MLX5_OPCODE_SEND;
	case IBV_WR_SEND_WITH_IMM:
		return MLX5_OPCODE_SEND_IMM;
	case IBV_WR_RDMA_WRITE:
		return MLX5_OPCODE_RDMA_WRITE;
	case IBV_WR_RDMA_WRITE_WITH_IMM:
		return MLX5_OPCODE_RDMA_WRITE_IMM;
	case IBV_WR_RDMA_READ:
		return MLX5_OPCODE_RDMA_READ;
	case IBV_WR_SEND_WITH_INV:
		return MLX5_OPCODE_SEND_INVAL;
	case IBV_WR_LOCAL_INV:
	case IBV_WR_BIND_MW:
		return MLX5_OPCODE_UMR; /* libmlx5 invalidates, binds by UMR. */
	case IBV_WR_ATOMIC_CMP_AND_SWP:
		return MLX5_OPCODE_ATOMIC_CS;
	case IBV_WR_ATOMIC_FETCH_AND_ADD:
		return MLX5_OPCODE_ATOMIC_FA;
	default:
		return -1;
	}
}

/*
 * Whether a QP of @type sends @opcode (UD: sends; raw packet: plain
 * sends; UC: no reads or atomics; RC and UC: sends with invalidate,
 * local invalidation).
 */
static bool
sim_dp_opcode_of(enum ibv_qp_type type, int opcode)
{
	if (type == IBV_QPT_RAW_PACKET)
		return opcode == MLX5_OPCODE_SEND;
	if (type == IBV_QPT_UD)
		return opcode == MLX5_OPCODE_SEND ||
		       opcode == MLX5_OPCODE_SEND_IMM;
	return type != IBV_QPT_UC || (opcode != MLX5_OPCODE_RDMA_READ &&
				      opcode != MLX5_OPCODE_ATOMIC_CS &&
				      opcode != MLX5_OPCODE_ATOMIC_FA);
}

/*
 * Open the WQE of @opcode at the send counter (its data follows, then
 * sim_dp_finish()): control segment with @flags (IBV_SEND_*), @wr_id,
 * immediate @imm, and the remote address segment of an RDMA opcode.
 */
static void
sim_dp_begin(struct sim_rdma_qp *q, int opcode, unsigned int flags,
	     uint64_t wr_id, uint32_t rkey, uint64_t raddr, __be32 imm)
{
	struct mlx5_wqe_ctrl_seg *ctrl = (void *)q->w.bytes;
	uint8_t *seg = q->w.bytes + sizeof(*ctrl);

	memset(ctrl, 0, sizeof(*ctrl));
	ctrl->opmod_idx_opcode =
		htobe32((q->sq_pi & 0xffff) << 8 | (uint32_t)opcode);
	/*
	 * An XRC initiator's WQE (but a UMR's): the XRC segment, naming the
	 * remote XRC SRQ (libmlx5's mlx5_wqe_xrc_seg), before the rest.
	 */
	q->w.xrc = NULL;
	if (q->qp->qp_type == IBV_QPT_XRC_SEND && opcode != MLX5_OPCODE_UMR) {
		memset(seg, 0, sizeof(struct mlx5_wqe_xrc_seg));
		q->w.xrc = seg;
		seg += sizeof(struct mlx5_wqe_xrc_seg);
	}
	ctrl->fm_ce_se =
		((flags & IBV_SEND_SIGNALED) || q->sig_all ?
			 MLX5_WQE_CTRL_CQ_UPDATE :
			 0) |
		(flags & IBV_SEND_SOLICITED ? MLX5_WQE_CTRL_SOLICITED : 0) |
		(flags & IBV_SEND_FENCE ? MLX5_WQE_CTRL_FENCE : q->fm_cache);
	q->fm_cache = 0;
	/* The immediate, or the key a SEND with invalidate names. */
	if (opcode == MLX5_OPCODE_SEND_IMM ||
	    opcode == MLX5_OPCODE_RDMA_WRITE_IMM ||
	    opcode == MLX5_OPCODE_SEND_INVAL)
		ctrl->imm = imm;
	q->w.wc_op = opcode == MLX5_OPCODE_RDMA_READ ? IBV_WC_RDMA_READ :
		     opcode == MLX5_OPCODE_RDMA_WRITE ||
				     opcode == MLX5_OPCODE_RDMA_WRITE_IMM ?
						       IBV_WC_RDMA_WRITE :
						       IBV_WC_SEND;
	if (opcode == MLX5_OPCODE_ATOMIC_CS)
		q->w.wc_op = IBV_WC_COMP_SWAP;
	else if (opcode == MLX5_OPCODE_ATOMIC_FA)
		q->w.wc_op = IBV_WC_FETCH_ADD;
	if (opcode == MLX5_OPCODE_RDMA_WRITE ||
	    opcode == MLX5_OPCODE_RDMA_WRITE_IMM ||
	    opcode == MLX5_OPCODE_RDMA_READ ||
	    opcode == MLX5_OPCODE_ATOMIC_CS ||
	    opcode == MLX5_OPCODE_ATOMIC_FA) {
		struct mlx5_wqe_raddr_seg *r = (void *)seg;

		r->raddr = htobe64(raddr);
		r->rkey = htobe32(rkey);
		r->reserved = 0;
		seg += sizeof(*r);
	}
	q->w.seg = seg;
	q->w.wr_id = wr_id;
	q->w.opcode = opcode;
}

/*
 * UMR WQEs as libmlx5 writes them for local invalidation and mlx5dv's
 * mkey operations: the control segment (the target key in its immediate,
 * an initiator small fence), the UMR control segment, the mkey context
 * segment, then the translation (an inline list or repeat block) in
 * 64-byte blocks.
 */
#define SIM_DP_UMR_CTRL 16
#define SIM_DP_UMR_MKC 64
#define SIM_DP_UMR_DATA 128
#define SIM_DP_UMR_REPEAT_BLOCK 0x400

static struct mlx5_wqe_umr_ctrl_seg *
sim_dp_umr(struct sim_rdma_qp *q)
{
	return (void *)(q->w.bytes + SIM_DP_UMR_CTRL);
}

static struct mlx5_wqe_mkey_context_seg *
sim_dp_mkc(struct sim_rdma_qp *q)
{
	return (void *)(q->w.bytes + SIM_DP_UMR_MKC);
}

/*
 * Open a UMR WQE on key @key completing as @wc_op: the key made valid
 * (free cleared) with its key byte, the translation to follow.
 */
static void
sim_dp_umr_begin(struct sim_rdma_qp *q, unsigned int flags, uint64_t wr_id,
		 uint32_t key, uint8_t wc_op)
{
	struct mlx5_wqe_ctrl_seg *ctrl = (void *)q->w.bytes;
	struct mlx5_wqe_umr_ctrl_seg *umr = sim_dp_umr(q);
	struct mlx5_wqe_mkey_context_seg *mk = sim_dp_mkc(q);

	sim_dp_begin(q, MLX5_OPCODE_UMR, flags, wr_id, 0, 0, 0);
	ctrl->imm = htobe32(key);
	/* libmlx5 fences the WQE after a UMR (its fm_cache). */
	q->fm_cache = MLX5_WQE_CTRL_INITIATOR_SMALL_FENCE;
	memset(umr, 0, SIM_DP_UMR_DATA - SIM_DP_UMR_CTRL);
	umr->flags = MLX5_WQE_UMR_CTRL_FLAG_INLINE;
	umr->mkey_mask = htobe64(MLX5_WQE_UMR_CTRL_MKEY_MASK_FREE |
				 MLX5_WQE_UMR_CTRL_MKEY_MASK_MKEY);
	mk->qpn_mkey = htobe32(0xffffff00u | (key & 0xff));
	q->w.seg = q->w.bytes + SIM_DP_UMR_DATA;
	q->w.wc_op = wc_op;
}

/* libmlx5's rights byte of an mkey context segment. */
static uint8_t
sim_dp_mkc_access(uint32_t acc)
{
	return (acc & IBV_ACCESS_REMOTE_ATOMIC ?
			MLX5_WQE_MKEY_CONTEXT_ACCESS_FLAGS_ATOMIC :
			0) |
	       (acc & IBV_ACCESS_REMOTE_WRITE ?
			MLX5_WQE_MKEY_CONTEXT_ACCESS_FLAGS_REMOTE_WRITE :
			0) |
	       (acc & IBV_ACCESS_REMOTE_READ ?
			MLX5_WQE_MKEY_CONTEXT_ACCESS_FLAGS_REMOTE_READ :
			0) |
	       (acc & IBV_ACCESS_LOCAL_WRITE ?
			MLX5_WQE_MKEY_CONTEXT_ACCESS_FLAGS_LOCAL_WRITE :
			0);
}

/*
 * The open UMR binds a window of @type with new key @rkey as @b says, or
 * invalidates it when @b's length is 0 (libmlx5's set_bind_wr, which
 * is also its local invalidation: a type 2 unbind, key byte 0): a type 2
 * window is bound to the QP (its number in the key's context) and must
 * be free; its invalidation checks that QP.
 */
static void
sim_dp_umr_bind(struct sim_rdma_qp *q, enum ibv_mw_type type, uint32_t rkey,
		const struct ibv_mw_bind_info *b)
{
	struct mlx5_wqe_umr_ctrl_seg *umr = sim_dp_umr(q);
	struct mlx5_wqe_mkey_context_seg *mk = sim_dp_mkc(q);
	uint64_t mask = MLX5_WQE_UMR_CTRL_MKEY_MASK_FREE |
			MLX5_WQE_UMR_CTRL_MKEY_MASK_MKEY;
	bool two = type == IBV_MW_TYPE_2;

	umr->flags = MLX5_WQE_UMR_CTRL_FLAG_TRNSLATION_OFFSET |
		     MLX5_WQE_UMR_CTRL_FLAG_INLINE;
	if (two)
		mask |= MLX5_WQE_UMR_CTRL_MKEY_MASK_QPN;
	mk->qpn_mkey = htobe32(
		(rkey & 0xff) |
		(!two || b->length == 0 ? 0xffffff00u : q->qp->qp_num << 8));
	if (b->length != 0) {
		struct mlx5_wqe_umr_klm_seg *klm = (void *)q->w.seg;

		/* One KLM entry, padded to 64 bytes. */
		umr->klm_octowords = htobe16(4);
		if (two)
			umr->flags |= MLX5_WQE_UMR_CTRL_FLAG_CHECK_FREE;
		mask |= MLX5_WQE_UMR_CTRL_MKEY_MASK_LEN |
			MLX5_WQE_UMR_CTRL_MKEY_MASK_START_ADDR |
			MLX5_WQE_UMR_CTRL_MKEY_MASK_ACCESS_LOCAL_WRITE |
			MLX5_WQE_UMR_CTRL_MKEY_MASK_ACCESS_REMOTE_READ |
			MLX5_WQE_UMR_CTRL_MKEY_MASK_ACCESS_REMOTE_WRITE |
			MLX5_WQE_UMR_CTRL_MKEY_MASK_ACCESS_ATOMIC;
		mk->access_flags = sim_dp_mkc_access(b->mw_access_flags);
		mk->free = 0;
		mk->start_addr = b->mw_access_flags & IBV_ACCESS_ZERO_BASED ?
					 0 :
					 htobe64(b->addr);
		mk->len = htobe64(b->length);
		memset(klm, 0, 64);
		klm->byte_count = htobe32((uint32_t)b->length);
		klm->mkey = htobe32(b->mr->lkey);
		klm->address = htobe64(b->addr);
		q->w.seg += 64;
	} else {
		umr->klm_octowords = 0;
		if (two)
			umr->flags |= MLX5_WQE_UMR_CTRL_FLAG_CHECK_QPN;
		mk->free = MLX5_WQE_MKEY_CONTEXT_FREE;
	}
	umr->mkey_mask = htobe64(mask);
}

/*
 * A UMR WQE on key @key binding a window of @type with new key @rkey as
 * @b says (completing as @wc_op): sim_dp_umr_begin() and
 * sim_dp_umr_bind().
 */
static void
sim_dp_umr_bind_wqe(struct sim_rdma_qp *q, unsigned int flags, uint64_t wr_id,
		    uint32_t key, enum ibv_mw_type type, uint32_t rkey,
		    const struct ibv_mw_bind_info *b, uint8_t wc_op)
{
	sim_dp_umr_begin(q, flags, wr_id, key, wc_op);
	sim_dp_umr_bind(q, type, rkey, b);
}

/* libmlx5's local invalidation of @key: its type 2 unbind. */
static void
sim_dp_umr_linv(struct sim_rdma_qp *q, unsigned int flags, uint64_t wr_id,
		uint32_t key)
{
	const struct ibv_mw_bind_info none = { 0 };

	sim_dp_umr_bind_wqe(q, flags, wr_id, key, IBV_MW_TYPE_2, 0, &none,
			    IBV_WC_LOCAL_INV);
}

/*
 * Address handles (RoCE): the address vector a UD WQE's datagram
 * segment carries, resolved at creation as the kernel does (the MAC of a
 * link-local destination GID; none for another GID: its datagrams go
 * nowhere).
 */
#define SIM_DP_MAGIC_AH 0x53494d41u /* "SIMA" */

struct sim_rdma_ah {
	struct ibv_ah ah;
	uint32_t magic;
	struct mlx5_wqe_av av;
};

struct ibv_ah *
ibv_create_ah(struct ibv_pd *pd, struct ibv_ah_attr *attr)
{
	struct sim_rdma_ah *a;
	uint32_t pdn;

	/* RoCE: ib_core refuses an address without a GRH. */
	if (pd == NULL || attr == NULL || mlx5_sim_query_pdn(pd, &pdn) != 0 ||
	    !attr->is_global || attr->port_num != 1 ||
	    attr->grh.sgid_index >= SIM_RDMA_GIDS_USED) {
		errno = EINVAL;
		return NULL;
	}
	a = calloc(1, sizeof(*a));
	if (a == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	a->ah.context = pd->context;
	a->ah.pd = pd;
	a->magic = SIM_DP_MAGIC_AH;
	(void)mlx5_sim_gid_mac(attr->grh.dgid.raw, a->av.rmac);
	memcpy(a->av.rgid, attr->grh.dgid.raw, sizeof(a->av.rgid));
	a->av.hop_limit = attr->grh.hop_limit;
	a->av.tclass = attr->grh.traffic_class;
	a->av.stat_rate_sl = attr->sl & 0xf;
	a->av.grh_gid_fl = htobe32((uint32_t)attr->grh.sgid_index << 20 |
				   (attr->grh.flow_label & 0xfffff));
	return &a->ah;
}

static struct sim_rdma_ah *
sim_dp_ah(struct ibv_ah *ah)
{
	struct sim_rdma_ah *a =
		ah != NULL ? container_of(ah, struct sim_rdma_ah, ah) : NULL;

	return a != NULL && a->magic == SIM_DP_MAGIC_AH ? a : NULL;
}

int
ibv_destroy_ah(struct ibv_ah *ah)
{
	struct sim_rdma_ah *a = sim_dp_ah(ah);

	if (a == NULL)
		return EINVAL;
	a->magic = 0;
	free(a);
	return 0;
}

/* The datagram segment of the open WQE: @a, to QP @qpn with @qkey. */
static void
sim_dp_put_av(uint8_t *at, const struct sim_rdma_ah *a, uint32_t qpn,
	      uint32_t qkey)
{
	struct mlx5_wqe_datagram_seg *d = (void *)at;

	d->av = a->av;
	d->av.key.qkey.qkey = htobe32(qkey);
	d->av.key.qkey.reserved = 0;
	d->av.dqp_dct = htobe32((qpn & 0xffffff) | MLX5_EXTENDED_UD_AV);
}

/*
 * The atomic segment of the open WQE (after its remote address): the
 * swap or add value and the compare value, as libmlx5 writes them.
 */
static void
sim_dp_add_atomic(struct sim_rdma_qp *q, uint64_t swap_add, uint64_t compare)
{
	struct mlx5_wqe_atomic_seg *a = (void *)q->w.seg;

	a->swap_add = htobe64(swap_add);
	a->compare = htobe64(compare);
	q->w.seg += sizeof(*a);
}

/*
 * The Ethernet segment of a raw packet QP's send (libmlx5's): the IP and
 * L4 checksums asked with IBV_SEND_IP_CSUM (EINVAL on a device without
 * raw checksums), and the inline header the device requires, none (it
 * announces wqe_inline_mode "not required", so the kernel tells libmlx5
 * MLX5_USER_INLINE_MODE_NONE): the 16-byte segment with an empty header.
 * libmlx5 wants a gather entry for the header all the same.
 */
static int
sim_dp_add_eth(struct sim_rdma_qp *q, const struct ibv_send_wr *wr)
{
	struct mlx5_wqe_eth_seg *es = (void *)q->w.seg;

	if (((wr->send_flags & IBV_SEND_IP_CSUM) && !q->raw_csum) ||
	    wr->num_sge < 1)
		return EINVAL;
	memset(es, 0, offsetof(struct mlx5_wqe_eth_seg, inline_hdr));
	if (wr->send_flags & IBV_SEND_IP_CSUM)
		es->cs_flags = MLX5_ETH_WQE_L3_CSUM | MLX5_ETH_WQE_L4_CSUM;
	q->w.seg += offsetof(struct mlx5_wqe_eth_seg, inline_hdr);
	return 0;
}

/* Bytes left in the open WQE. */
static size_t
sim_dp_room(const struct sim_rdma_qp *q)
{
	return (size_t)(q->w.bytes + SIM_DP_WQE_MAX - q->w.seg);
}

/*
 * Data segments of the open WQE (libmlx5 leaves out empty entries); none
 * on a UMR, none past the WQE's end.
 */
static int
sim_dp_add_sges(struct sim_rdma_qp *q, size_t n, const struct ibv_sge *sg)
{
	size_t i;

	if (n > q->max_send_sge || q->w.opcode == MLX5_OPCODE_UMR ||
	    n * sizeof(struct mlx5_wqe_data_seg) > sim_dp_room(q))
		return EINVAL;
	for (i = 0; i < n; i++) {
		struct mlx5_wqe_data_seg *d = (void *)q->w.seg;

		if (sg[i].length == 0)
			continue;
		d->byte_count = htobe32(sg[i].length);
		d->lkey = htobe32(sg[i].lkey);
		d->addr = htobe64(sg[i].addr);
		q->w.seg += sizeof(*d);
	}
	return 0;
}

/* One inline segment of the open WQE: its byte count, then the bytes. */
static int
sim_dp_add_inline(struct sim_rdma_qp *q, size_t n,
		  const struct ibv_data_buf *buf)
{
	uint8_t *data = q->w.seg + sizeof(uint32_t);
	size_t total = 0, span, i;
	uint32_t bc;

	if (q->w.opcode == MLX5_OPCODE_RDMA_READ ||
	    q->w.opcode == MLX5_OPCODE_UMR)
		return EINVAL;
	for (i = 0; i < n; i++)
		total += buf[i].length;
	if (total > q->max_inline)
		return EINVAL;
	span = RTE_ALIGN_CEIL(sizeof(bc) + total, 16);
	if (span > sim_dp_room(q))
		return EINVAL;
	for (i = 0; i < n; i++) {
		memcpy(data, buf[i].addr, buf[i].length);
		data += buf[i].length;
	}
	bc = htobe32((uint32_t)total | MLX5_INLINE_SEG);
	memcpy(q->w.seg, &bc, sizeof(bc));
	memset(data, 0, span - sizeof(bc) - total);
	q->w.seg += span;
	return 0;
}

/*
 * Close the open WQE (if any) and put it in the ring at the send
 * counter: 0, or ENOMEM if the ring has no room (nothing written).
 */
static int
sim_dp_finish(struct sim_rdma_qp *q)
{
	struct mlx5_wqe_ctrl_seg *ctrl = (void *)q->w.bytes;
	uint32_t n = q->dv.sq.wqe_cnt, len, bbs, i;

	if (q->w.seg == NULL)
		return 0;
	len = (uint32_t)(q->w.seg - q->w.bytes);
	q->w.seg = NULL;
	bbs = RTE_ALIGN_CEIL(len, SIM_DP_WQEBB) / SIM_DP_WQEBB;
	if (q->sq_pi + bbs - q->sq_tail > n)
		return ENOMEM;
	ctrl->qpn_ds = htobe32(q->qp->qp_num << 8 | len / 16);
	for (i = 0; i < bbs; i++)
		memcpy((uint8_t *)q->dv.sq.buf +
			       (size_t)((q->sq_pi + i) & (n - 1)) *
				       SIM_DP_WQEBB,
		       q->w.bytes + (size_t)i * SIM_DP_WQEBB, SIM_DP_WQEBB);
	q->sq_wrid[q->sq_pi & (n - 1)] = q->w.wr_id;
	q->sq_next[q->sq_pi & (n - 1)] = q->sq_pi + bbs;
	q->sq_op[q->sq_pi & (n - 1)] = q->w.wc_op;
	q->sq_pi += bbs;
	memcpy(q->last, q->w.bytes, sizeof(q->last));
	q->pending = true;
	return 0;
}

/* Ring the doorbell of @q if WQEs wait: the record, then BlueFlame. */
static void
sim_dp_ring(struct sim_rdma_qp *q)
{
	uint64_t db;

	if (!q->pending)
		return;
	q->pending = false;
	rte_io_wmb();
	__atomic_store_n(&q->dv.dbrec[MLX5_SND_DBR], htobe32(q->sq_pi & 0xffff),
			 __ATOMIC_RELEASE);
	rte_io_wmb();
	memcpy(&db, q->last, sizeof(db));
	__atomic_store_n(
		(uint64_t *)(void *)((uint8_t *)q->dv.bf.reg + q->bf_off), db,
		__ATOMIC_RELEASE);
	q->bf_off ^= q->dv.bf.size;
}

/* The remote XRC SRQ of the open WQE (an XRC initiator's). */
static void
sim_dp_set_xrc(struct sim_rdma_qp *q, uint32_t srqn)
{
	struct mlx5_wqe_xrc_seg *x = (void *)q->w.xrc;

	x->xrc_srqn = htobe32(srqn);
	q->w.xrc = NULL;
}

/*
 * The WQE of work request @wr (mlx5 @opcode; @ah, a UD QP's address) in
 * the open WQE of @q, before sim_dp_finish(): 0 or an errno.
 */
static int
sim_dp_wr_build(struct sim_rdma_qp *q, const struct ibv_send_wr *wr, int opcode,
		const struct sim_rdma_ah *ah)
{
	bool atomic = opcode == MLX5_OPCODE_ATOMIC_CS ||
		      opcode == MLX5_OPCODE_ATOMIC_FA;

	if (opcode == MLX5_OPCODE_UMR && wr->opcode == IBV_WR_BIND_MW) {
		const struct ibv_mw_bind_info *b = &wr->bind_mw.bind_info;

		if (wr->bind_mw.mw == NULL || (b->length != 0 && b->mr == NULL))
			return EINVAL;
		/* libmlx5: a KLM entry covers 2 GB at most. */
		if (b->length > (UINT64_C(1) << 31))
			return EOPNOTSUPP;
		sim_dp_umr_bind_wqe(q, wr->send_flags, wr->wr_id,
				    wr->bind_mw.mw->rkey, wr->bind_mw.mw->type,
				    wr->bind_mw.rkey, b, IBV_WC_BIND_MW);
		return 0;
	}
	if (opcode == MLX5_OPCODE_UMR) {
		sim_dp_umr_linv(q, wr->send_flags, wr->wr_id,
				wr->invalidate_rkey);
		return 0;
	}
	/* An atomic has its own remote address and key. */
	sim_dp_begin(q, opcode, wr->send_flags, wr->wr_id,
		     atomic ? wr->wr.atomic.rkey : wr->wr.rdma.rkey,
		     atomic ? wr->wr.atomic.remote_addr :
			      wr->wr.rdma.remote_addr,
		     opcode == MLX5_OPCODE_SEND_INVAL ?
			     htobe32(wr->invalidate_rkey) :
			     wr->imm_data);
	if (q->w.xrc != NULL)
		sim_dp_set_xrc(q, wr->qp_type.xrc.remote_srqn);
	if (q->qp->qp_type == IBV_QPT_RAW_PACKET) {
		int err = sim_dp_add_eth(q, wr);

		if (err != 0)
			return err;
	}
	if (opcode == MLX5_OPCODE_ATOMIC_CS)
		sim_dp_add_atomic(q, wr->wr.atomic.swap,
				  wr->wr.atomic.compare_add);
	else if (opcode == MLX5_OPCODE_ATOMIC_FA)
		sim_dp_add_atomic(q, wr->wr.atomic.compare_add, 0);
	if (ah != NULL) {
		sim_dp_put_av(q->w.seg, ah, wr->wr.ud.remote_qpn,
			      wr->wr.ud.remote_qkey);
		q->w.seg += sizeof(struct mlx5_wqe_datagram_seg);
	}
	if ((wr->send_flags & IBV_SEND_INLINE) &&
	    opcode != MLX5_OPCODE_RDMA_READ && !atomic) {
		struct ibv_data_buf buf[SIM_DP_WQE_MAX / 16];
		int i;

		if ((size_t)wr->num_sge > RTE_DIM(buf))
			return EINVAL;
		for (i = 0; i < wr->num_sge; i++) {
			buf[i].addr = (void *)(uintptr_t)wr->sg_list[i].addr;
			buf[i].length = wr->sg_list[i].length;
		}
		return sim_dp_add_inline(q, (size_t)wr->num_sge, buf);
	}
	return sim_dp_add_sges(q, (size_t)wr->num_sge, wr->sg_list);
}

int
sim_rdma_post_send(struct ibv_qp *qp, struct ibv_send_wr *wr,
		   struct ibv_send_wr **bad)
{
	struct sim_rdma_qp *q = sim_dp_qp(qp);
	int err = 0;

	/*
	 * libmlx5: no send before RTS (its gather limit is -1 until then:
	 * ENOMEM, "max gs exceeded").
	 */
	if (q == NULL || qp->state < IBV_QPS_RTS) {
		*bad = wr;
		return q == NULL ? EINVAL : ENOMEM;
	}
	pthread_spin_lock(&q->sq_lock);
	for (; wr != NULL; wr = wr->next) {
		int opcode = sim_dp_opcode(wr->opcode);
		struct sim_rdma_ah *ah = NULL;

		if (opcode < 0 || wr->num_sge < 0 ||
		    !sim_dp_opcode_of(q->qp->qp_type, opcode) ||
		    (q->qp->qp_type == IBV_QPT_UD &&
		     (ah = sim_dp_ah(wr->wr.ud.ah)) == NULL)) {
			err = EINVAL;
			break;
		}
		err = sim_dp_wr_build(q, wr, opcode, ah);
		if (err == 0)
			err = sim_dp_finish(q);
		q->w.seg = NULL;
		if (err != 0)
			break;
	}
	sim_dp_ring(q);
	pthread_spin_unlock(&q->sq_lock);
	if (err != 0)
		*bad = wr;
	return err;
}

/*
 * The extended send API (ibv_qp_ex, ibv_wr_*()): the same WQEs, built
 * call by call between ibv_wr_start() and ibv_wr_complete(), which rings
 * once; the first error is kept and ibv_wr_complete() returns it having
 * posted nothing of the batch (libmlx5's rule); ibv_wr_abort() drops the
 * batch. A UD operation takes its address and its data in either order
 * (its datagram segment has a place of its own); its WQE closes when
 * both are set. Each QP type has the calls its operations need, as
 * libmlx5 installs them (the others are NULL).
 */
static struct sim_rdma_qp *
sim_qpx(struct ibv_qp_ex *qpx)
{
	return sim_dp_qp(&qpx->qp_base);
}

/* The next operation of a batch: the previous WQE closed first. */
static void
sim_qpx_op(struct ibv_qp_ex *qpx, int opcode, uint32_t rkey, uint64_t raddr,
	   __be32 imm)
{
	struct sim_rdma_qp *q = sim_qpx(qpx);

	if (q->x_err == 0)
		q->x_err = sim_dp_finish(q);
	if (q->x_err != 0)
		return;
	sim_dp_begin(q, opcode, qpx->wr_flags, qpx->wr_id, rkey, raddr, imm);
	q->w.av = NULL;
	q->w.setters = 1;
	if (q->qp->qp_type == IBV_QPT_UD) {
		q->w.av = q->w.seg;
		q->w.seg += sizeof(struct mlx5_wqe_datagram_seg);
		q->w.setters = 2;
	}
	/* An XRC operation: its SRQ and its data, in either order. */
	if (q->w.xrc != NULL)
		q->w.setters = 2;
}

static void
sim_qpx_start(struct ibv_qp_ex *qpx)
{
	struct sim_rdma_qp *q = sim_qpx(qpx);

	pthread_spin_lock(&q->sq_lock);
	/* libmlx5: the batch of a QP not in RTS fails at its completion. */
	q->x_err = qpx->qp_base.state < IBV_QPS_RTS ? EINVAL : 0;
	q->x_start = q->sq_pi;
	q->w.seg = NULL;
}

static int
sim_qpx_complete(struct ibv_qp_ex *qpx)
{
	struct sim_rdma_qp *q = sim_qpx(qpx);
	int err = q->x_err;

	if (err == 0)
		err = sim_dp_finish(q);
	if (err != 0) {
		/* Nothing of the batch is posted. */
		q->sq_pi = q->x_start;
		q->pending = false;
	}
	sim_dp_ring(q);
	pthread_spin_unlock(&q->sq_lock);
	return err;
}

static void
sim_qpx_abort(struct ibv_qp_ex *qpx)
{
	struct sim_rdma_qp *q = sim_qpx(qpx);

	q->w.seg = NULL;
	q->sq_pi = q->x_start;
	q->pending = false;
	pthread_spin_unlock(&q->sq_lock);
}

static void
sim_qpx_send(struct ibv_qp_ex *qpx)
{
	sim_qpx_op(qpx, MLX5_OPCODE_SEND, 0, 0, 0);
}

static void
sim_qpx_send_imm(struct ibv_qp_ex *qpx, __be32 imm)
{
	sim_qpx_op(qpx, MLX5_OPCODE_SEND_IMM, 0, 0, imm);
}

static void
sim_qpx_send_inv(struct ibv_qp_ex *qpx, uint32_t invalidate_rkey)
{
	sim_qpx_op(qpx, MLX5_OPCODE_SEND_INVAL, 0, 0, htobe32(invalidate_rkey));
}

/*
 * Close the open WQE of the batch of @q and open a UMR: false if the
 * batch failed already.
 */
static bool
sim_qpx_umr_next(struct sim_rdma_qp *q)
{
	if (q->x_err == 0)
		q->x_err = sim_dp_finish(q);
	return q->x_err == 0;
}

static void
sim_qpx_local_inv(struct ibv_qp_ex *qpx, uint32_t invalidate_rkey)
{
	struct sim_rdma_qp *q = sim_qpx(qpx);

	if (!sim_qpx_umr_next(q))
		return;
	sim_dp_umr_linv(q, qpx->wr_flags, qpx->wr_id, invalidate_rkey);
	q->x_err = sim_dp_finish(q);
}

static void
sim_qpx_bind_mw(struct ibv_qp_ex *qpx, struct ibv_mw *mw, uint32_t rkey,
		const struct ibv_mw_bind_info *bind_info)
{
	struct sim_rdma_qp *q = sim_qpx(qpx);

	if (!sim_qpx_umr_next(q))
		return;
	if (bind_info->length > (UINT64_C(1) << 31)) {
		q->x_err = EOPNOTSUPP;
		return;
	}
	/* libmlx5 binds as type 2 here, whatever the window's type. */
	sim_dp_umr_bind_wqe(q, qpx->wr_flags, qpx->wr_id, mw->rkey,
			    IBV_MW_TYPE_2, rkey, bind_info, IBV_WC_BIND_MW);
	q->x_err = sim_dp_finish(q);
}

static void
sim_qpx_rdma_write(struct ibv_qp_ex *qpx, uint32_t rkey, uint64_t raddr)
{
	sim_qpx_op(qpx, MLX5_OPCODE_RDMA_WRITE, rkey, raddr, 0);
}

static void
sim_qpx_rdma_write_imm(struct ibv_qp_ex *qpx, uint32_t rkey, uint64_t raddr,
		       __be32 imm)
{
	sim_qpx_op(qpx, MLX5_OPCODE_RDMA_WRITE_IMM, rkey, raddr, imm);
}

static void
sim_qpx_rdma_read(struct ibv_qp_ex *qpx, uint32_t rkey, uint64_t raddr)
{
	sim_qpx_op(qpx, MLX5_OPCODE_RDMA_READ, rkey, raddr, 0);
}

static void
sim_qpx_atomic_cmp_swp(struct ibv_qp_ex *qpx, uint32_t rkey,
		       uint64_t remote_addr, uint64_t compare, uint64_t swap)
{
	struct sim_rdma_qp *q = sim_qpx(qpx);

	sim_qpx_op(qpx, MLX5_OPCODE_ATOMIC_CS, rkey, remote_addr, 0);
	if (q->x_err == 0)
		sim_dp_add_atomic(q, swap, compare);
}

static void
sim_qpx_atomic_fetch_add(struct ibv_qp_ex *qpx, uint32_t rkey,
			 uint64_t remote_addr, uint64_t add)
{
	struct sim_rdma_qp *q = sim_qpx(qpx);

	sim_qpx_op(qpx, MLX5_OPCODE_ATOMIC_FA, rkey, remote_addr, 0);
	if (q->x_err == 0)
		sim_dp_add_atomic(q, add, 0);
}

/*
 * A setter of the open WQE done (@err: its error); the last one closes
 * it.
 */
static void
sim_qpx_set_done(struct sim_rdma_qp *q, int err)
{
	if (q->x_err == 0 && err != 0)
		q->x_err = err;
	if (q->x_err == 0 && --q->w.setters != 0)
		return;
	if (q->x_err == 0)
		q->x_err = sim_dp_finish(q);
	q->w.seg = NULL;
}

static void
sim_qpx_set_sge_list(struct ibv_qp_ex *qpx, size_t n, const struct ibv_sge *sg)
{
	struct sim_rdma_qp *q = sim_qpx(qpx);

	if (q->x_err == 0 && q->w.seg != NULL)
		sim_qpx_set_done(q, sim_dp_add_sges(q, n, sg));
}

static void
sim_qpx_set_sge(struct ibv_qp_ex *qpx, uint32_t lkey, uint64_t addr,
		uint32_t length)
{
	struct ibv_sge sg = { .addr = addr, .length = length, .lkey = lkey };

	sim_qpx_set_sge_list(qpx, 1, &sg);
}

static void
sim_qpx_set_inline_data_list(struct ibv_qp_ex *qpx, size_t n,
			     const struct ibv_data_buf *buf)
{
	struct sim_rdma_qp *q = sim_qpx(qpx);

	if (q->x_err == 0 && q->w.seg != NULL)
		sim_qpx_set_done(q, sim_dp_add_inline(q, n, buf));
}

static void
sim_qpx_set_inline_data(struct ibv_qp_ex *qpx, void *addr, size_t length)
{
	struct ibv_data_buf buf = { .addr = addr, .length = length };

	sim_qpx_set_inline_data_list(qpx, 1, &buf);
}

/* The send operations an extended QP may ask for (the others: none). */
#define SIM_QPX_OPS \
	(IBV_QP_EX_WITH_SEND | IBV_QP_EX_WITH_SEND_WITH_IMM | \
	 IBV_QP_EX_WITH_RDMA_WRITE | IBV_QP_EX_WITH_RDMA_WRITE_WITH_IMM | \
	 IBV_QP_EX_WITH_RDMA_READ | IBV_QP_EX_WITH_SEND_WITH_INV | \
	 IBV_QP_EX_WITH_LOCAL_INV | IBV_QP_EX_WITH_ATOMIC_CMP_AND_SWP | \
	 IBV_QP_EX_WITH_ATOMIC_FETCH_AND_ADD | IBV_QP_EX_WITH_BIND_MW)

int
sim_rdma_qpx_check(const struct ibv_qp_init_attr_ex *attr)
{
	uint64_t ops =
		attr->qp_type == IBV_QPT_UD ?
			IBV_QP_EX_WITH_SEND | IBV_QP_EX_WITH_SEND_WITH_IMM :
			SIM_QPX_OPS;

	if (!(attr->comp_mask & IBV_QP_INIT_ATTR_SEND_OPS_FLAGS))
		return 0;
	return (attr->qp_type != IBV_QPT_RC && attr->qp_type != IBV_QPT_UD &&
		attr->qp_type != IBV_QPT_XRC_SEND) ||
			       (attr->send_ops_flags & ~ops) ?
		       EOPNOTSUPP :
		       0;
}

/* The datagram address of the open WQE (a UD QP's, after its op). */
static void
sim_qpx_set_ud_addr(struct ibv_qp_ex *qpx, struct ibv_ah *ah,
		    uint32_t remote_qpn, uint32_t remote_qkey)
{
	struct sim_rdma_qp *q = sim_qpx(qpx);
	struct sim_rdma_ah *a = sim_dp_ah(ah);

	if (q->x_err != 0 || q->w.seg == NULL || q->w.av == NULL)
		return;
	if (a != NULL)
		sim_dp_put_av(q->w.av, a, remote_qpn, remote_qkey);
	q->w.av = NULL;
	sim_qpx_set_done(q, a != NULL ? 0 : EINVAL);
}

/* The remote XRC SRQ of the open WQE (an XRC initiator's operation). */
static void
sim_qpx_set_xrc_srqn(struct ibv_qp_ex *qpx, uint32_t remote_srqn)
{
	struct sim_rdma_qp *q = sim_qpx(qpx);

	if (q->x_err != 0 || q->w.seg == NULL || q->w.xrc == NULL)
		return;
	sim_dp_set_xrc(q, remote_srqn);
	sim_qpx_set_done(q, 0);
}

/* The ibv_qp_ex calls of @q's QP (created with send operations). */
static void
sim_qpx_init(struct sim_rdma_qp *q, struct ibv_qp_ex *qpx)
{
	qpx->wr_start = sim_qpx_start;
	qpx->wr_complete = sim_qpx_complete;
	qpx->wr_abort = sim_qpx_abort;
	qpx->wr_send = sim_qpx_send;
	qpx->wr_send_imm = sim_qpx_send_imm;
	qpx->wr_set_sge = sim_qpx_set_sge;
	qpx->wr_set_sge_list = sim_qpx_set_sge_list;
	qpx->wr_set_inline_data = sim_qpx_set_inline_data;
	qpx->wr_set_inline_data_list = sim_qpx_set_inline_data_list;
	if (q->qp->qp_type == IBV_QPT_UD) {
		qpx->wr_set_ud_addr = sim_qpx_set_ud_addr;
	} else {
		qpx->wr_rdma_write = sim_qpx_rdma_write;
		qpx->wr_rdma_write_imm = sim_qpx_rdma_write_imm;
		qpx->wr_rdma_read = sim_qpx_rdma_read;
		qpx->wr_send_inv = sim_qpx_send_inv;
		qpx->wr_local_inv = sim_qpx_local_inv;
		qpx->wr_bind_mw = sim_qpx_bind_mw;
		qpx->wr_atomic_cmp_swp = sim_qpx_atomic_cmp_swp;
		qpx->wr_atomic_fetch_add = sim_qpx_atomic_fetch_add;
	}
	if (q->qp->qp_type == IBV_QPT_XRC_SEND)
		qpx->wr_set_xrc_srqn = sim_qpx_set_xrc_srqn;
	q->qpx = qpx;
	q->ex = true;
}

/*
 * mlx5dv's mkey operations (mlx5dv_qp_ex, libmlx5's builders): a UMR WQE
 * on an mkey of mlx5dv_create_mkey(), in the ibv_qp_ex batch, built by
 * setters in any order: wr_mkey_configure() opens it (inline only, no
 * configuration flag but resetting a signature, which the device has
 * not) and names how many setters close it; the rights (local write,
 * remote read and write, atomic) and the layout (a list of entries, or
 * entries repeated with strides: libmlx5's repeat block) each once.
 * wr_mr_list() and wr_mr_interleaved() are the three in one. A layout
 * longer than the QP's inline room is ENOMEM at wr_complete(), a setter
 * out of place EINVAL, as libmlx5; what the key itself refuses (its
 * entries, its PD) is the device's: an error completion.
 */
static struct sim_rdma_qp *
sim_dvx(struct mlx5dv_qp_ex *dvx)
{
	/* Through void *: the struct is more aligned than the member. */
	return (struct sim_rdma_qp *)(void *)((uint8_t *)dvx -
					      offsetof(struct sim_rdma_qp,
						       dvx));
}

/* The open WQE of @q is an mkey UMR that a setter may complete. */
static bool
sim_dvx_open(struct sim_rdma_qp *q)
{
	if (q->x_err != 0)
		return false;
	if (q->w.seg == NULL || q->w.opcode != MLX5_OPCODE_UMR ||
	    q->w.wc_op != IBV_WC_DRIVER1) {
		q->x_err = EINVAL;
		return false;
	}
	return true;
}

static void
sim_dvx_mkey_configure(struct mlx5dv_qp_ex *dvx, struct mlx5dv_mkey *mkey,
		       uint8_t num_setters, struct mlx5dv_mkey_conf_attr *attr)
{
	struct sim_rdma_qp *q = sim_dvx(dvx);
	struct ibv_qp_ex *qpx = q->qpx;

	if (!sim_qpx_umr_next(q))
		return;
	if (!(qpx->wr_flags & IBV_SEND_INLINE) || attr->comp_mask != 0 ||
	    (attr->conf_flags &
	     ~(uint64_t)MLX5DV_MKEY_CONF_FLAG_RESET_SIG_ATTR)) {
		q->x_err = EOPNOTSUPP;
		return;
	}
	sim_dp_umr_begin(q, qpx->wr_flags, qpx->wr_id, mkey->lkey,
			 IBV_WC_DRIVER1);
	q->w.mkey_desc = mlx5_sim_dv_mkey_entries(mkey);
	/* No setter to come: the WQE is complete as it is. */
	q->w.setters = num_setters != 0 ? num_setters : 1;
	if (num_setters == 0)
		sim_qpx_set_done(q, 0);
}

static void
sim_dvx_set_access(struct mlx5dv_qp_ex *dvx, uint32_t access_flags)
{
	const uint64_t bits = MLX5_WQE_UMR_CTRL_MKEY_MASK_ACCESS_LOCAL_WRITE |
			      MLX5_WQE_UMR_CTRL_MKEY_MASK_ACCESS_REMOTE_READ |
			      MLX5_WQE_UMR_CTRL_MKEY_MASK_ACCESS_REMOTE_WRITE |
			      MLX5_WQE_UMR_CTRL_MKEY_MASK_ACCESS_ATOMIC;
	struct sim_rdma_qp *q = sim_dvx(dvx);
	struct mlx5_wqe_umr_ctrl_seg *umr = sim_dp_umr(q);

	if (!sim_dvx_open(q))
		return;
	/* Known rights only, and once per WQE. */
	if ((access_flags &
	     ~(uint32_t)(IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
			 IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_ATOMIC)) ||
	    (umr->mkey_mask & htobe64(bits))) {
		sim_qpx_set_done(q, EINVAL);
		return;
	}
	umr->mkey_mask |= htobe64(bits);
	sim_dp_mkc(q)->access_flags = sim_dp_mkc_access(access_flags);
	sim_qpx_set_done(q, 0);
}

/*
 * The layout of the open mkey UMR: @n entries of @sge (a list), or of
 * @data repeated @repeat times (a repeat block first).
 */
static void
sim_dvx_set_layout(struct sim_rdma_qp *q, uint32_t repeat, uint16_t n,
		   const struct mlx5dv_mr_interleaved *data,
		   const struct ibv_sge *sge)
{
	struct mlx5_wqe_umr_ctrl_seg *umr = sim_dp_umr(q);
	uint32_t room = (q->max_inline + 4) / 16, xlat, size, i;
	uint8_t *at = q->w.seg;
	uint64_t reglen = 0;

	if (!sim_dvx_open(q))
		return;
	/* libmlx5: the inline room and the key's entries bound it. */
	room = RTE_MIN(data != NULL ? (room > 0 ? room - 1 : 0) : room,
		       q->w.mkey_desc);
	if (n > room) {
		sim_qpx_set_done(q, ENOMEM);
		return;
	}
	if (umr->klm_octowords != 0) {
		sim_qpx_set_done(q, EINVAL);
		return;
	}
	xlat = (n + (data != NULL)) * 16u;
	size = RTE_ALIGN_CEIL(xlat, 64u);
	if (size > sim_dp_room(q)) {
		sim_qpx_set_done(q, ENOMEM);
		return;
	}
	if (data != NULL) {
		struct mlx5_wqe_umr_repeat_block_seg *rb = (void *)at;
		uint64_t block = 0;

		rb->op = htobe32(SIM_DP_UMR_REPEAT_BLOCK);
		rb->reserved = 0;
		rb->num_ent = htobe16(n);
		rb->repeat_count = htobe32(repeat);
		for (i = 0; i < n; i++) {
			struct mlx5_wqe_umr_repeat_ent_seg *e = &rb->entries[i];

			e->va = htobe64(data[i].addr);
			e->byte_count = htobe16((uint16_t)data[i].bytes_count);
			e->stride = htobe16((uint16_t)(data[i].bytes_count +
						       data[i].bytes_skip));
			e->memkey = htobe32(data[i].lkey);
			block += data[i].bytes_count;
		}
		rb->byte_count = htobe32((uint32_t)block);
		reglen = block * repeat;
	} else {
		struct mlx5_wqe_data_seg *d = (void *)at;

		for (i = 0; i < n; i++) {
			d[i].addr = htobe64(sge[i].addr);
			d[i].lkey = htobe32(sge[i].lkey);
			d[i].byte_count = htobe32(sge[i].length);
			reglen += sge[i].length;
		}
	}
	memset(at + xlat, 0, size - xlat);
	sim_dp_mkc(q)->len = htobe64(reglen);
	umr->mkey_mask |= htobe64(MLX5_WQE_UMR_CTRL_MKEY_MASK_LEN);
	umr->klm_octowords = htobe16((uint16_t)(size / 16));
	q->w.seg += size;
	sim_qpx_set_done(q, 0);
}

static void
sim_dvx_set_layout_list(struct mlx5dv_qp_ex *dvx, uint16_t num_sges,
			const struct ibv_sge *sge)
{
	sim_dvx_set_layout(sim_dvx(dvx), 0, num_sges, NULL, sge);
}

static void
sim_dvx_set_layout_interleaved(struct mlx5dv_qp_ex *dvx, uint32_t repeat_count,
			       uint16_t num_interleaved,
			       const struct mlx5dv_mr_interleaved *data)
{
	sim_dvx_set_layout(sim_dvx(dvx), repeat_count, num_interleaved, data,
			   NULL);
}

static void
sim_dvx_mr_list(struct mlx5dv_qp_ex *dvx, struct mlx5dv_mkey *mkey,
		uint32_t access_flags, uint16_t num_sges, struct ibv_sge *sge)
{
	struct mlx5dv_mkey_conf_attr attr = { 0 };

	sim_dvx_mkey_configure(dvx, mkey, 2, &attr);
	sim_dvx_set_access(dvx, access_flags);
	sim_dvx_set_layout(sim_dvx(dvx), 0, num_sges, NULL, sge);
}

static void
sim_dvx_mr_interleaved(struct mlx5dv_qp_ex *dvx, struct mlx5dv_mkey *mkey,
		       uint32_t access_flags, uint32_t repeat_count,
		       uint16_t num_interleaved,
		       struct mlx5dv_mr_interleaved *data)
{
	struct mlx5dv_mkey_conf_attr attr = { 0 };

	sim_dvx_mkey_configure(dvx, mkey, 2, &attr);
	sim_dvx_set_access(dvx, access_flags);
	sim_dvx_set_layout(sim_dvx(dvx), repeat_count, num_interleaved, data,
			   NULL);
}

/* A setter the front does not carry: the batch fails (EOPNOTSUPP). */
static void
sim_dvx_refuse(struct mlx5dv_qp_ex *dvx)
{
	struct sim_rdma_qp *q = sim_dvx(dvx);

	if (sim_dvx_open(q))
		sim_qpx_set_done(q, EOPNOTSUPP);
}

static void
sim_dvx_set_mkey_crypto(struct mlx5dv_qp_ex *dvx,
			const struct mlx5dv_crypto_attr *attr)
{
	RTE_SET_USED(attr);
	sim_dvx_refuse(dvx);
}

static void
sim_dvx_set_mkey_sig_block(struct mlx5dv_qp_ex *dvx,
			   const struct mlx5dv_sig_block_attr *attr)
{
	RTE_SET_USED(attr);
	sim_dvx_refuse(dvx);
}

/*
 * The mlx5dv calls of @q's send operations: as libmlx5, every mkey call
 * when any mkey operation was asked for (crypto and signature setters
 * refuse the batch: not carried).
 */
static void
sim_dvx_init(struct sim_rdma_qp *q)
{
	if (!(q->dv_ops & SIM_RDMA_DV_UMR_OPS))
		return;
	q->dvx.wr_mr_list = sim_dvx_mr_list;
	q->dvx.wr_mr_interleaved = sim_dvx_mr_interleaved;
	q->dvx.wr_mkey_configure = sim_dvx_mkey_configure;
	q->dvx.wr_set_mkey_access_flags = sim_dvx_set_access;
	q->dvx.wr_set_mkey_layout_list = sim_dvx_set_layout_list;
	q->dvx.wr_set_mkey_layout_interleaved = sim_dvx_set_layout_interleaved;
	q->dvx.wr_set_mkey_crypto = sim_dvx_set_mkey_crypto;
	q->dvx.wr_set_mkey_sig_block = sim_dvx_set_mkey_sig_block;
}

struct mlx5dv_qp_ex *
sim_rdma_dv_qpx(struct ibv_qp_ex *qpx)
{
	struct sim_rdma_qp *q = qpx != NULL ? sim_dp_qp(&qpx->qp_base) : NULL;

	return q != NULL ? &q->dvx : NULL;
}

uint32_t
sim_rdma_sq_overhead(const struct ibv_qp_init_attr_ex *attr, uint64_t dv_ops)
{
	uint64_t ops = attr->comp_mask & IBV_QP_INIT_ATTR_SEND_OPS_FLAGS ?
			       attr->send_ops_flags :
		       attr->qp_type == IBV_QPT_UD ?
			       (uint64_t)IBV_QP_EX_WITH_SEND |
				       IBV_QP_EX_WITH_SEND_WITH_IMM :
			       (uint64_t)SIM_QPX_OPS;
	/* An XRC initiator's WQEs carry an XRC segment after the control. */
	uint32_t xrc = attr->qp_type == IBV_QPT_XRC_SEND ?
			       (uint32_t)sizeof(struct mlx5_wqe_xrc_seg) :
			       0;
	uint32_t size = 16 + xrc;

	/* libmlx5's send overhead of a raw QP: control and Ethernet segments. */
	if (attr->qp_type == IBV_QPT_RAW_PACKET)
		return size + (uint32_t)sizeof(struct mlx5_wqe_eth_seg);
	if (ops &
	    (IBV_QP_EX_WITH_RDMA_WRITE | IBV_QP_EX_WITH_RDMA_WRITE_WITH_IMM |
	     IBV_QP_EX_WITH_RDMA_READ))
		size = 16 + xrc + 16;
	if (ops & (IBV_QP_EX_WITH_ATOMIC_CMP_AND_SWP |
		   IBV_QP_EX_WITH_ATOMIC_FETCH_AND_ADD))
		size = 16 + xrc + 16 + 16;
	if ((ops & (IBV_QP_EX_WITH_BIND_MW | IBV_QP_EX_WITH_LOCAL_INV)) ||
	    (dv_ops & SIM_RDMA_DV_UMR_OPS))
		size = SIM_DP_UMR_DATA + 64;
	return attr->qp_type == IBV_QPT_UD ?
		       size + (uint32_t)sizeof(struct mlx5_wqe_datagram_seg) :
		       size;
}

uint32_t
sim_rdma_send_wqe(uint32_t over, const struct ibv_qp_cap *cap)
{
	uint32_t size = over + 16 * cap->max_send_sge;
	uint32_t inl =
		cap->max_inline_data != 0 ?
			over + RTE_ALIGN_CEIL(4 + cap->max_inline_data, 16u) :
			0;

	size = RTE_ALIGN_CEIL(RTE_MAX(size, inl), (uint32_t)SIM_DP_WQEBB);
	return size <= SIM_DP_WQE_MAX ? size : 0;
}

/*
 * Whether the device writes a message's data in order: not promised (0),
 * which every program must take (the model writes a message whole).
 */
int
ibv_query_qp_data_in_order(struct ibv_qp *qp, enum ibv_wr_opcode op,
			   uint32_t flags)
{
	RTE_SET_USED(op);
	RTE_SET_USED(flags);
	return sim_dp_qp(qp) != NULL ? 0 : -EINVAL;
}

struct ibv_qp_ex *
ibv_qp_to_qp_ex(struct ibv_qp *qp)
{
	struct mlx5_sim_vobj *v = mlx5_sim_vobj_of(qp, MLX5_SIM_OBJ_QP);
	struct sim_rdma_qp *q = v != NULL ? v->prov : NULL;

	return q != NULL && q->ex ? &v->ib.qpx : NULL;
}

int
sim_rdma_post_recv(struct ibv_qp *qp, struct ibv_recv_wr *wr,
		   struct ibv_recv_wr **bad)
{
	struct sim_rdma_qp *q = sim_dp_qp(qp);

	/* libmlx5: no receive posted to a QP in RESET. */
	if (q == NULL || qp->state == IBV_QPS_RESET) {
		*bad = wr;
		return EINVAL;
	}
	return sim_dp_rq_post(&q->rq, wr, bad);
}

/* libmlx5's status of an error CQE's syndrome. */
static enum ibv_wc_status
sim_dp_status(uint8_t synd)
{
	switch (synd) {
	case MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR:
		return IBV_WC_LOC_LEN_ERR;
	case MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR:
		return IBV_WC_LOC_QP_OP_ERR;
	case MLX5_CQE_SYNDROME_LOCAL_PROT_ERR:
		return IBV_WC_LOC_PROT_ERR;
	case MLX5_CQE_SYNDROME_WR_FLUSH_ERR:
		return IBV_WC_WR_FLUSH_ERR;
	case MLX5_CQE_SYNDROME_MW_BIND_ERR:
		return IBV_WC_MW_BIND_ERR;
	case MLX5_CQE_SYNDROME_BAD_RESP_ERR:
		return IBV_WC_BAD_RESP_ERR;
	case MLX5_CQE_SYNDROME_LOCAL_ACCESS_ERR:
		return IBV_WC_LOC_ACCESS_ERR;
	case MLX5_CQE_SYNDROME_REMOTE_INVAL_REQ_ERR:
		return IBV_WC_REM_INV_REQ_ERR;
	case MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR:
		return IBV_WC_REM_ACCESS_ERR;
	case MLX5_CQE_SYNDROME_REMOTE_OP_ERR:
		return IBV_WC_REM_OP_ERR;
	case MLX5_CQE_SYNDROME_TRANSPORT_RETRY_EXC_ERR:
		return IBV_WC_RETRY_EXC_ERR;
	case MLX5_CQE_SYNDROME_RNR_RETRY_EXC_ERR:
		return IBV_WC_RNR_RETRY_EXC_ERR;
	case MLX5_CQE_SYNDROME_REMOTE_ABORTED_ERR:
		return IBV_WC_REM_ABORT_ERR;
	default:
		return IBV_WC_GENERAL_ERR;
	}
}

/*
 * The work completion of the send WQE @idx of @q: its wr_id and opcode,
 * the tail.
 */
static void
sim_dp_sq_done(struct sim_rdma_qp *q, uint16_t idx, struct ibv_wc *wc)
{
	uint32_t slot = idx & (q->dv.sq.wqe_cnt - 1);

	wc->wr_id = q->sq_wrid[slot];
	wc->opcode = (enum ibv_wc_opcode)q->sq_op[slot];
	q->sq_tail = q->sq_next[slot];
}

/*
 * An SRQ's WQE @idx completed: its wr_id, and the WQE back at the tail of
 * the free list (libmlx5's mlx5_free_srq_wqe).
 */
static void
sim_dp_srq_done(struct sim_rdma_srq *r, uint16_t idx, struct ibv_wc *wc)
{
	struct mlx5_wqe_srq_next_seg *tail;

	idx &= (uint16_t)(r->max - 1);
	pthread_spin_lock(&r->lock);
	wc->wr_id = r->wrid[idx];
	tail = sim_dp_srq_wqe(r, r->tail);
	tail->next_wqe_index = htobe16(idx);
	r->tail = idx;
	pthread_spin_unlock(&r->lock);
}

/* The next receive of @q completes (@idx: the WQE the CQE names). */
static void
sim_dp_rq_done(struct sim_rdma_qp *q, uint16_t idx, struct ibv_wc *wc)
{
	struct sim_rdma_srq *r =
		q->qp->srq != NULL ? sim_dp_srq(q->qp->srq) : NULL;

	if (r != NULL) {
		sim_dp_srq_done(r, idx, wc);
		return;
	}
	wc->wr_id = sim_dp_rq_next(&q->rq);
}

/*
 * @wc of @cqe of WQ @w (number @wqn): the next receive, its length, or
 * the status of an error CQE (libmlx5's RWQ completions).
 */
static void
sim_dp_wq_wc(struct sim_rdma_wq *w, uint32_t wqn, const struct mlx5_cqe64 *cqe,
	     struct ibv_wc *wc)
{
	uint8_t opcode = cqe->op_own >> 4;

	memset(wc, 0, sizeof(*wc));
	wc->qp_num = wqn;
	wc->wr_id = sim_dp_rq_next(&w->rq);
	wc->opcode = IBV_WC_RECV;
	if (opcode == MLX5_CQE_RESP_SEND) {
		wc->byte_len = be32toh(cqe->byte_cnt);
	} else if (opcode == MLX5_CQE_RESP_ERR) {
		const struct mlx5_err_cqe *e = (const void *)cqe;

		wc->status = sim_dp_status(e->syndrome);
		wc->vendor_err = e->vendor_err_synd;
	} else {
		wc->status = IBV_WC_GENERAL_ERR;
	}
}

/*
 * A good receive CQE's opcode, length, source QP, GRH, immediate or
 * invalidated key in @wc.
 */
static void
sim_dp_recv_wc(const struct mlx5_cqe64 *cqe, uint8_t opcode, struct ibv_wc *wc)
{
	wc->opcode = opcode == MLX5_CQE_RESP_WR_IMM ?
			     IBV_WC_RECV_RDMA_WITH_IMM :
			     IBV_WC_RECV;
	wc->byte_len = be32toh(cqe->byte_cnt);
	wc->src_qp = be32toh(cqe->flags_rqpn) & 0xffffff;
	/* A GRH before the payload (UD over RoCE). */
	if ((be32toh(cqe->flags_rqpn) >> 28) & 3)
		wc->wc_flags |= IBV_WC_GRH;
	if (opcode == MLX5_CQE_RESP_SEND_INV) {
		wc->wc_flags |= IBV_WC_WITH_INV;
		wc->invalidated_rkey = be32toh(cqe->imm_inval_pkey);
	} else if (opcode != MLX5_CQE_RESP_SEND) {
		wc->wc_flags |= IBV_WC_WITH_IMM;
		wc->imm_data = cqe->imm_inval_pkey;
	}
}

/*
 * A receive CQE of XRC SRQ @v (libmlx5's XSRQ resource), the target QP's
 * number as the CQE gives it. false if the SRQ has no provider state.
 */
static bool
sim_dp_xrc_wc(struct mlx5_sim_vobj *v, const struct mlx5_cqe64 *cqe,
	      uint8_t opcode, struct ibv_wc *wc)
{
	const struct mlx5_err_cqe *e = (const void *)cqe;

	if (v->prov == NULL)
		return false;
	memset(wc, 0, sizeof(*wc));
	wc->qp_num = sim_dp_cqe_qpn(cqe);
	sim_dp_srq_done(v->prov, be16toh(cqe->wqe_counter), wc);
	if (opcode == MLX5_CQE_RESP_ERR) {
		wc->opcode = IBV_WC_RECV;
		wc->status = sim_dp_status(e->syndrome);
		wc->vendor_err = e->vendor_err_synd;
	} else {
		sim_dp_recv_wc(cqe, opcode, wc);
	}
	return true;
}

/*
 * @wc of @cqe; false if its QP, WQ or XRC SRQ is gone (the CQE is
 * dropped, as libmlx5's CQ_POLL_ERR). A CQE carrying a user index is its
 * XRC SRQ's, raw QP's or WQ's; any other is its QP's, by number (libmlx5
 * finds every CQE by user index with cqe_version 1; the model gives a
 * user index to receive queues only, so a QP's CQEs carry none). A
 * receive CQE of an RQ carries a flow tag where a QP's carries its
 * number, and libmlx5 reports that field as wc.qp_num either way.
 */
static bool
sim_dp_wc(struct ibv_cq *cq, const struct mlx5_cqe64 *cqe, struct ibv_wc *wc)
{
	struct mlx5_sim_ctx *sctx = mlx5_sim_ctx_get(cq->context);
	uint8_t opcode = cqe->op_own >> 4;
	uint32_t qpn = sim_dp_cqe_qpn(cqe), uidx;
	struct mlx5_sim_vobj *v;
	struct sim_rdma_qp *q;

	if (sctx == NULL)
		return false;
	uidx = sim_dp_cqe_uidx(cqe);
	v = mlx5_sim_vobj_by_uidx(sctx->file, uidx);
	/* A user index nobody holds: its queue is gone (not a QP's). */
	if (uidx != 0 && v == NULL)
		return false;
	if (v != NULL && v->kind == MLX5_SIM_OBJ_SRQ)
		return sim_dp_xrc_wc(v, cqe, opcode, wc);
	if (v != NULL && v->kind == MLX5_SIM_OBJ_RQ) {
		if (v->prov == NULL)
			return false;
		sim_dp_wq_wc(v->prov, qpn, cqe, wc);
		return true;
	}
	if (v == NULL)
		v = mlx5_sim_vobj_find(sctx->file, MLX5_SIM_OBJ_QP, qpn);
	if (v == NULL || v->kind != MLX5_SIM_OBJ_QP)
		return false;
	q = v->prov;
	if (q == NULL)
		return false;
	memset(wc, 0, sizeof(*wc));
	/* The CQE's field (a raw QP's receive: the flow tag), as libmlx5. */
	wc->qp_num = qpn;
	switch (opcode) {
	case MLX5_CQE_REQ:
		/* The opcode as posted (libmlx5 keeps it per WQE). */
		sim_dp_sq_done(q, be16toh(cqe->wqe_counter), wc);
		if (wc->opcode == IBV_WC_RDMA_READ)
			wc->byte_len = be32toh(cqe->byte_cnt);
		else if (wc->opcode == IBV_WC_COMP_SWAP ||
			 wc->opcode == IBV_WC_FETCH_ADD)
			wc->byte_len = 8;
		break;
	case MLX5_CQE_RESP_SEND:
	case MLX5_CQE_RESP_SEND_IMM:
	case MLX5_CQE_RESP_SEND_INV:
	case MLX5_CQE_RESP_WR_IMM:
		sim_dp_rq_done(q, be16toh(cqe->wqe_counter), wc);
		/*
		 * A frame (raw packet QP) has no source QP, no GRH; its
		 * checksums are good if the device says so of an IPv4 frame
		 * (libmlx5's get_csum_ok).
		 */
		if (q->qp->qp_type == IBV_QPT_RAW_PACKET) {
			wc->opcode = IBV_WC_RECV;
			wc->byte_len = be32toh(cqe->byte_cnt);
			if (q->raw_csum &&
			    (cqe->hds_ip_ext &
			     (MLX5_CQE_L4_OK | MLX5_CQE_L3_OK)) ==
				    (MLX5_CQE_L4_OK | MLX5_CQE_L3_OK) &&
			    ((cqe->l4_hdr_type_etc >> 2) & 0x3) ==
				    MLX5_CQE_L3_HDR_TYPE_IPV4)
				wc->wc_flags |= IBV_WC_IP_CSUM_OK;
			break;
		}
		sim_dp_recv_wc(cqe, opcode, wc);
		break;
	case MLX5_CQE_REQ_ERR:
	case MLX5_CQE_RESP_ERR: {
		const struct mlx5_err_cqe *e = (const void *)cqe;

		if (opcode == MLX5_CQE_REQ_ERR)
			sim_dp_sq_done(q, be16toh(e->wqe_counter), wc);
		else
			sim_dp_rq_done(q, be16toh(e->wqe_counter), wc);
		wc->status = sim_dp_status(e->syndrome);
		wc->vendor_err = e->vendor_err_synd;
		break;
	}
	default:
		wc->status = IBV_WC_GENERAL_ERR;
		break;
	}
	return true;
}

int
sim_rdma_poll_cq(struct ibv_cq *cq, int n, struct ibv_wc *wc)
{
	struct sim_rdma_cq *c = sim_dp_cq(cq);
	uint32_t ci0;
	int got = 0;

	if (c == NULL)
		return -EINVAL;
	/*
	 * Nothing there: the doorbells rung so far are taken first (the
	 * look under the lock, which a resize of the ring takes; the scan
	 * without it, the device writing CQEs).
	 */
	pthread_spin_lock(&c->lock);
	if (sim_dp_cqe(c, c->ci) == NULL) {
		pthread_spin_unlock(&c->lock);
		mlx5_sim_doorbell_scan();
		pthread_spin_lock(&c->lock);
	}
	ci0 = c->ci;
	while (got < n) {
		struct mlx5_cqe64 *cqe = sim_dp_cqe(c, c->ci);

		if (cqe == NULL)
			break;
		sim_dp_ci_add(c, 1);
		if (sim_dp_wc(cq, cqe, &wc[got]))
			got++;
	}
	if (c->ci != ci0) {
		rte_io_wmb();
		__atomic_store_n(&c->dv.dbrec[0], htobe32(c->ci & 0xffffff),
				 __ATOMIC_RELEASE);
	}
	pthread_spin_unlock(&c->lock);
	return got;
}

/*
 * Work queues (ibv_create_wq()): libmlx5's RWQ over the device's RQ, its
 * receives posted by ibv_post_wq_recv() as a QP's are; moved from RESET
 * to RDY, or destroyed, its CQEs leave its CQ (and its counters start
 * over).
 */
static int
sim_rdma_post_wq_recv(struct ibv_wq *wq, struct ibv_recv_wr *wr,
		      struct ibv_recv_wr **bad)
{
	struct sim_rdma_wq *w = sim_dp_wq(wq);

	if (w == NULL) {
		*bad = wr;
		return EINVAL;
	}
	return sim_dp_rq_post(&w->rq, wr, bad);
}

struct ibv_wq *
sim_rdma_create_wq(struct ibv_context *ctx, struct ibv_wq_init_attr *attr)
{
	struct ibv_wq *wq = mlx5_sim_create_wq(ctx, attr);
	struct mlx5dv_rwq dv = { .comp_mask = 0 };
	struct mlx5dv_obj obj = { .rwq = { .in = wq, .out = &dv } };
	struct mlx5_sim_vobj *v = mlx5_sim_vobj_of(wq, MLX5_SIM_OBJ_RQ);
	struct sim_rdma_wq *w;
	int err = ENOMEM;

	if (wq == NULL || v == NULL)
		return NULL;
	w = calloc(1, sizeof(*w));
	if (w != NULL && mlx5_sim_dv_init_obj(&obj, MLX5DV_OBJ_RWQ) == 0 &&
	    sim_dp_rq_init(&w->rq, dv.buf, dv.dbrec, dv.wqe_cnt, dv.stride) ==
		    0) {
		v->prov = w;
		v->prov_free = sim_dp_wq_free;
		wq->post_recv = sim_rdma_post_wq_recv;
		return wq;
	}
	free(w);
	mlx5_sim_destroy_wq(wq);
	errno = err;
	return NULL;
}

/* A WQ's user index (its CQEs carry it; no QP number matches). */
static uint32_t
sim_dp_wq_uidx(struct ibv_wq *wq)
{
	struct mlx5_sim_vobj *v = mlx5_sim_vobj_of(wq, MLX5_SIM_OBJ_RQ);

	return v != NULL ? v->uidx : 0;
}

/*
 * libmlx5's modify: a move to RDY checks the current state the caller
 * gives, and from RESET first takes the WQ's CQEs out of its CQ and
 * starts its counters over (receives posted in RESET are dropped).
 */
int
sim_rdma_modify_wq(struct ibv_wq *wq, struct ibv_wq_attr *attr)
{
	struct sim_rdma_wq *w = sim_dp_wq(wq);

	if (w != NULL && attr != NULL &&
	    (attr->attr_mask & IBV_WQ_ATTR_STATE) &&
	    attr->wq_state == IBV_WQS_RDY) {
		if ((attr->attr_mask & IBV_WQ_ATTR_CURR_STATE) &&
		    attr->curr_wq_state != wq->state)
			return EINVAL;
		if (wq->state == IBV_WQS_RESET) {
			sim_dp_cq_clean(wq->cq, UINT32_MAX, sim_dp_wq_uidx(wq),
					NULL);
			pthread_spin_lock(&w->rq.lock);
			sim_dp_rq_reset(&w->rq);
			pthread_spin_unlock(&w->rq.lock);
		}
	}
	return mlx5_sim_modify_wq(wq, attr);
}

int
sim_rdma_destroy_wq(struct ibv_wq *wq)
{
	struct sim_rdma_cq *c = wq->cq != NULL ? sim_dp_cq(wq->cq) : NULL;
	uint32_t uidx = sim_dp_wq_uidx(wq);
	int err;

	/* As a QP's: its CQ locked while the device lets go, then cleaned. */
	if (c != NULL)
		pthread_spin_lock(&c->lock);
	err = mlx5_sim_destroy_wq(wq);
	if (err == 0)
		sim_dp_cq_clean_locked(c, UINT32_MAX, uidx, NULL);
	if (c != NULL)
		pthread_spin_unlock(&c->lock);
	return err;
}

/*
 * Extended CQs (ibv_create_cq_ex(), mlx5dv_create_cq()): the same CQ and
 * completions, read by libmlx5's iterator: ibv_start_poll() takes the
 * CQ's lock and the first completion (ENOENT, the lock released, when
 * none), ibv_next_poll() the next, ibv_end_poll() releases the lock; the
 * ibv_wc_read_*() calls read the completion taken. The work completion
 * fields offered are the standard ones (IBV_WC_STANDARD_FLAGS); the
 * others (timestamps, VLAN, flow tag, tag matching) are not carried.
 */
static struct sim_rdma_cq *
sim_cqx(struct ibv_cq_ex *cqx)
{
	return sim_dp_cq(ibv_cq_ex_to_cq(cqx));
}

/* The consumer counter to the record: the slots read go back. */
static void
sim_cqx_consumed(struct sim_rdma_cq *c)
{
	rte_io_wmb();
	__atomic_store_n(&c->dv.dbrec[0], htobe32(c->ci & 0xffffff),
			 __ATOMIC_RELEASE);
}

/* The next completion of @cqx into its current one (lock held). */
static int
sim_cqx_take(struct ibv_cq_ex *cqx)
{
	struct ibv_cq *cq = ibv_cq_ex_to_cq(cqx);
	struct sim_rdma_cq *c = sim_dp_cq(cq);

	for (;;) {
		struct mlx5_cqe64 *cqe = sim_dp_cqe(c, c->ci);

		if (cqe == NULL)
			return ENOENT;
		/*
		 * The slot stays the CQ's until the record says so, at the
		 * poll's end (as libmlx5 updates its consumer index).
		 */
		sim_dp_ci_add(c, 1);
		/* A CQE of a QP gone is dropped, as by ibv_poll_cq(). */
		if (sim_dp_wc(cq, cqe, &c->cur))
			break;
	}
	cqx->wr_id = c->cur.wr_id;
	cqx->status = c->cur.status;
	return 0;
}

static int
sim_cqx_start_poll(struct ibv_cq_ex *cqx, struct ibv_poll_cq_attr *attr)
{
	struct sim_rdma_cq *c = sim_cqx(cqx);
	int err;

	if (attr == NULL || attr->comp_mask != 0)
		return EINVAL;
	pthread_spin_lock(&c->lock);
	/* Nothing there: the doorbells rung so far first, as a poll. */
	if (sim_dp_cqe(c, c->ci) == NULL) {
		pthread_spin_unlock(&c->lock);
		mlx5_sim_doorbell_scan();
		pthread_spin_lock(&c->lock);
	}
	err = sim_cqx_take(cqx);
	if (err != 0) {
		sim_cqx_consumed(c); /* CQEs of QPs gone may have been taken. */
		pthread_spin_unlock(&c->lock);
	}
	return err;
}

static int
sim_cqx_next_poll(struct ibv_cq_ex *cqx)
{
	return sim_cqx_take(cqx);
}

static void
sim_cqx_end_poll(struct ibv_cq_ex *cqx)
{
	struct sim_rdma_cq *c = sim_cqx(cqx);

	sim_cqx_consumed(c);
	pthread_spin_unlock(&c->lock);
}

static enum ibv_wc_opcode
sim_cqx_read_opcode(struct ibv_cq_ex *cqx)
{
	return sim_cqx(cqx)->cur.opcode;
}

static uint32_t
sim_cqx_read_vendor_err(struct ibv_cq_ex *cqx)
{
	return sim_cqx(cqx)->cur.vendor_err;
}

static uint32_t
sim_cqx_read_byte_len(struct ibv_cq_ex *cqx)
{
	return sim_cqx(cqx)->cur.byte_len;
}

static __be32
sim_cqx_read_imm_data(struct ibv_cq_ex *cqx)
{
	return sim_cqx(cqx)->cur.imm_data;
}

static uint32_t
sim_cqx_read_qp_num(struct ibv_cq_ex *cqx)
{
	return sim_cqx(cqx)->cur.qp_num;
}

static uint32_t
sim_cqx_read_src_qp(struct ibv_cq_ex *cqx)
{
	return sim_cqx(cqx)->cur.src_qp;
}

static unsigned int
sim_cqx_read_wc_flags(struct ibv_cq_ex *cqx)
{
	return sim_cqx(cqx)->cur.wc_flags;
}

static uint32_t
sim_cqx_read_slid(struct ibv_cq_ex *cqx)
{
	return sim_cqx(cqx)->cur.slid;
}

static uint8_t
sim_cqx_read_sl(struct ibv_cq_ex *cqx)
{
	return sim_cqx(cqx)->cur.sl;
}

static uint8_t
sim_cqx_read_dlid_path_bits(struct ibv_cq_ex *cqx)
{
	return sim_cqx(cqx)->cur.dlid_path_bits;
}

struct ibv_cq_ex *
sim_rdma_create_cq_ex(struct ibv_context *ctx, struct ibv_cq_init_attr_ex *attr)
{
	return sim_rdma_cq_ex_new(ctx, attr, -1, -1);
}

struct ibv_cq_ex *
sim_rdma_cq_ex_new(struct ibv_context *ctx, struct ibv_cq_init_attr_ex *attr,
		   int size, int mini_fmt)
{
	const uint32_t flags = IBV_CREATE_CQ_ATTR_SINGLE_THREADED |
			       IBV_CREATE_CQ_ATTR_IGNORE_OVERRUN;
	struct ibv_cq_ex *cqx;
	struct ibv_cq *cq;
	uint64_t wc = attr != NULL ? attr->wc_flags : 0;

	/*
	 * libmlx5's checks: a size, known creation flags (a parent domain,
	 * which the front does not have, is EINVAL), work completion
	 * fields it carries (others: EOPNOTSUPP).
	 */
	if (attr == NULL || attr->cqe == 0 ||
	    (attr->comp_mask & ~(uint32_t)(IBV_CQ_INIT_ATTR_MASK_FLAGS)) ||
	    ((attr->comp_mask & IBV_CQ_INIT_ATTR_MASK_FLAGS) &&
	     (attr->flags & ~flags))) {
		errno = EINVAL;
		return NULL;
	}
	if (wc & ~(uint64_t)IBV_WC_STANDARD_FLAGS) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	cq = sim_rdma_cq_new(
		ctx, (int)attr->cqe, attr->cq_context, attr->channel,
		(int)attr->comp_vector, size,
		(attr->comp_mask & IBV_CQ_INIT_ATTR_MASK_FLAGS) &&
			(attr->flags & IBV_CREATE_CQ_ATTR_IGNORE_OVERRUN),
		mini_fmt);
	if (cq == NULL)
		return NULL;
	cqx = &mlx5_sim_vobj_of(cq, MLX5_SIM_OBJ_CQ)->ib.cqx;
	cqx->start_poll = sim_cqx_start_poll;
	cqx->next_poll = sim_cqx_next_poll;
	cqx->end_poll = sim_cqx_end_poll;
	cqx->read_opcode = sim_cqx_read_opcode;
	cqx->read_vendor_err = sim_cqx_read_vendor_err;
	cqx->read_wc_flags = sim_cqx_read_wc_flags;
	/* The fields asked for (libmlx5 leaves the others NULL). */
	if (wc & IBV_WC_EX_WITH_BYTE_LEN)
		cqx->read_byte_len = sim_cqx_read_byte_len;
	if (wc & IBV_WC_EX_WITH_IMM)
		cqx->read_imm_data = sim_cqx_read_imm_data;
	if (wc & IBV_WC_EX_WITH_QP_NUM)
		cqx->read_qp_num = sim_cqx_read_qp_num;
	if (wc & IBV_WC_EX_WITH_SRC_QP)
		cqx->read_src_qp = sim_cqx_read_src_qp;
	if (wc & IBV_WC_EX_WITH_SLID)
		cqx->read_slid = sim_cqx_read_slid;
	if (wc & IBV_WC_EX_WITH_SL)
		cqx->read_sl = sim_cqx_read_sl;
	if (wc & IBV_WC_EX_WITH_DLID_PATH_BITS)
		cqx->read_dlid_path_bits = sim_cqx_read_dlid_path_bits;
	return cqx;
}
