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
 * syndrome) and moves the consumer counter. A QP moved to RESET or
 * destroyed has its CQEs taken out of its CQs first, as libmlx5 does, so
 * that a QP used again polls only its new work.
 *
 * RC QPs: SEND, SEND with immediate, RDMA WRITE (with immediate), RDMA
 * READ; signalled, solicited and inline flags. Not carried (EINVAL, as
 * libmlx5 for an opcode its QP type lacks): atomics, memory windows,
 * local invalidate, TSO.
 *
 * Completion events: a CQ created on a completion channel is armed by
 * ibv_req_notify_cq() (the device raises one event at its next CQE, or
 * at once if one is waiting); the kernel's part queues the event on the
 * channel, whose eventfd counts them, and ibv_get_cq_event() hands them
 * out in order. Solicited-only arming arms for the next CQE.
 */

#include <errno.h>
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
	uint32_t ci;	 /* Consumer counter. */
	uint32_t events; /* Events read through its channel. */
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

struct sim_rdma_qp {
	struct mlx5dv_qp dv;
	struct ibv_qp *qp;
	pthread_spinlock_t sq_lock, rq_lock;
	uint32_t sq_pi;	   /* Basic blocks posted. */
	uint32_t sq_tail;  /* Basic blocks completed. */
	uint64_t *sq_wrid; /* By the WQE's first block. */
	uint32_t *sq_next; /* The counter after that WQE. */
	uint32_t rq_head, rq_tail;
	uint64_t *rq_wrid;
	uint32_t rq_sge; /* Segments of a receive WQE. */
	uint32_t max_send_sge, max_inline;
	uint32_t bf_off; /* BlueFlame register alternated. */
	bool sig_all;
};

static void
sim_dp_qp_free(void *p)
{
	struct sim_rdma_qp *q = p;

	pthread_spin_destroy(&q->sq_lock);
	pthread_spin_destroy(&q->rq_lock);
	free(q->sq_wrid);
	free(q->sq_next);
	free(q->rq_wrid);
	free(q);
}

static void
sim_dp_cq_free(void *p)
{
	struct sim_rdma_cq *c = p;

	pthread_spin_destroy(&c->lock);
	free(c);
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
 * An event of @arg's CQ (the device's, card lock held): queued on its
 * channel, whose eventfd counts it. An event that cannot be queued (no
 * memory) is lost, as a kernel event queue overrun loses it (logged).
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
	TAILQ_INSERT_TAIL(&c->events, e, next);
	pthread_mutex_unlock(&c->lock);
	if (write(c->ch.fd, &one, sizeof(one)) != sizeof(one))
		SIM_RDMA_LOG(ERR, "CQ %u: completion event not signalled",
			     cq->handle);
}

struct ibv_comp_channel *
sim_rdma_channel_create(struct ibv_context *ctx)
{
	struct sim_rdma_channel *c = calloc(1, sizeof(*c));

	if (c == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	/* One read, one event (the kernel's file gives one at a time). */
	c->ch.fd = eventfd(0, EFD_CLOEXEC | EFD_SEMAPHORE);
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
	struct sim_rdma_event *e;
	struct sim_rdma_cq *q;
	uint64_t v;

	/* Blocks unless the fd is non-blocking (EAGAIN), as the kernel's. */
	if (read(ch->fd, &v, sizeof(v)) != sizeof(v))
		return -1;
	pthread_mutex_lock(&c->lock);
	e = TAILQ_FIRST(&c->events);
	if (e != NULL)
		TAILQ_REMOVE(&c->events, e, next);
	pthread_mutex_unlock(&c->lock);
	if (e == NULL) {
		/* Its CQ was destroyed meanwhile. */
		errno = EAGAIN;
		return -1;
	}
	*cq = e->cq;
	*cq_context = e->cq->cq_context;
	free(e);
	q = sim_dp_cq(*cq);
	if (q != NULL)
		__atomic_fetch_add(&q->events, 1, __ATOMIC_RELAXED);
	return 0;
}

void
sim_rdma_channel_purge(struct ibv_comp_channel *ch, const struct ibv_cq *cq)
{
	struct sim_rdma_channel *c = sim_dp_channel(ch);
	struct sim_rdma_event *e, *n;
	uint64_t v;

	pthread_mutex_lock(&c->lock);
	for (e = TAILQ_FIRST(&c->events); e != NULL; e = n) {
		n = TAILQ_NEXT(e, next);
		if (e->cq != cq)
			continue;
		TAILQ_REMOVE(&c->events, e, next);
		free(e);
		/* Its count too: one read takes one (it is there). */
		if (read(ch->fd, &v, sizeof(v)) != sizeof(v))
			break;
	}
	pthread_mutex_unlock(&c->lock);
}

uint32_t
sim_rdma_dp_cq_events(struct ibv_cq *cq)
{
	struct sim_rdma_cq *q = sim_dp_cq(cq);

	return q != NULL ? __atomic_load_n(&q->events, __ATOMIC_RELAXED) : 0;
}

int
sim_rdma_req_notify_cq(struct ibv_cq *cq, int solicited_only)
{
	struct sim_rdma_cq *c = sim_dp_cq(cq);
	uint32_t ci;

	/*
	 * Solicited-only arming is taken as arming for the next CQE: an
	 * event may come for an unsolicited completion (a spurious wakeup,
	 * which programs handle by polling).
	 */
	RTE_SET_USED(solicited_only);
	if (c == NULL || cq->channel == NULL)
		return EINVAL;
	pthread_spin_lock(&c->lock);
	ci = c->ci;
	pthread_spin_unlock(&c->lock);
	return mlx5_sim_cq_arm(cq, ci);
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

int
sim_rdma_dp_qp_init(struct ibv_qp *qp, const struct ibv_qp_init_attr_ex *attr)
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
	q->sq_wrid = calloc(q->dv.sq.wqe_cnt, sizeof(*q->sq_wrid));
	q->sq_next = calloc(q->dv.sq.wqe_cnt, sizeof(*q->sq_next));
	q->rq_wrid = calloc(q->dv.rq.wqe_cnt + 1, sizeof(*q->rq_wrid));
	if (q->sq_wrid == NULL || q->sq_next == NULL || q->rq_wrid == NULL) {
		free(q->sq_wrid);
		free(q->sq_next);
		free(q->rq_wrid);
		free(q);
		return ENOMEM;
	}
	q->rq_sge = q->dv.rq.stride / sizeof(struct mlx5_wqe_data_seg);
	q->max_send_sge = attr->cap.max_send_sge;
	q->max_inline = attr->cap.max_inline_data;
	q->sig_all = attr->sq_sig_all != 0;
	pthread_spin_init(&q->sq_lock, PTHREAD_PROCESS_PRIVATE);
	pthread_spin_init(&q->rq_lock, PTHREAD_PROCESS_PRIVATE);
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
 * Take the CQEs of QP @qpn out of @cq (as libmlx5 cleans a CQ):
 * those after them move up, keeping the owner bit of the slot they land
 * in.
 */
static void
sim_dp_cq_clean(struct ibv_cq *cq, uint32_t qpn)
{
	struct sim_rdma_cq *c = cq != NULL ? sim_dp_cq(cq) : NULL;
	uint32_t prod, nfreed = 0;

	if (c == NULL)
		return;
	pthread_spin_lock(&c->lock);
	for (prod = c->ci;
	     prod - c->ci < c->dv.cqe_cnt && sim_dp_cqe(c, prod) != NULL;
	     prod++)
		;
	while ((int32_t)(--prod - c->ci) >= 0) {
		struct mlx5_cqe64 *cqe = sim_dp_cqe(c, prod);
		struct mlx5_cqe64 *dst;
		uint8_t owner;

		if (sim_dp_cqe_qpn(cqe) == qpn) {
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
		c->ci += nfreed;
		rte_io_wmb();
		c->dv.dbrec[0] = htobe32(c->ci & 0xffffff);
	}
	pthread_spin_unlock(&c->lock);
}

void
sim_rdma_dp_qp_reset(struct ibv_qp *qp)
{
	struct sim_rdma_qp *q = sim_dp_qp(qp);

	if (q == NULL)
		return;
	sim_dp_cq_clean(qp->recv_cq, qp->qp_num);
	if (qp->send_cq != qp->recv_cq)
		sim_dp_cq_clean(qp->send_cq, qp->qp_num);
	pthread_spin_lock(&q->sq_lock);
	pthread_spin_lock(&q->rq_lock);
	q->sq_pi = 0;
	q->sq_tail = 0;
	q->rq_head = 0;
	q->rq_tail = 0;
	q->dv.dbrec[MLX5_RCV_DBR] = 0;
	q->dv.dbrec[MLX5_SND_DBR] = 0;
	pthread_spin_unlock(&q->rq_lock);
	pthread_spin_unlock(&q->sq_lock);
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
	default:
		return -1;
	}
}

/*
 * Build the WQE of @wr in @wqe (SIM_DP_WQE_MAX bytes): its length in
 * bytes, or a negative errno.
 */
static int
sim_dp_build(struct sim_rdma_qp *q, const struct ibv_send_wr *wr, int opcode,
	     uint8_t *wqe)
{
	struct mlx5_wqe_ctrl_seg *ctrl = (void *)wqe;
	uint8_t *seg = wqe + sizeof(*ctrl);
	uint32_t total = 0;
	int i;

	memset(ctrl, 0, sizeof(*ctrl));
	if (wr->num_sge < 0 || (uint32_t)wr->num_sge > q->max_send_sge)
		return -EINVAL;
	if (opcode == MLX5_OPCODE_RDMA_WRITE ||
	    opcode == MLX5_OPCODE_RDMA_WRITE_IMM ||
	    opcode == MLX5_OPCODE_RDMA_READ) {
		struct mlx5_wqe_raddr_seg *r = (void *)seg;

		r->raddr = htobe64(wr->wr.rdma.remote_addr);
		r->rkey = htobe32(wr->wr.rdma.rkey);
		r->reserved = 0;
		seg += sizeof(*r);
	}
	for (i = 0; i < wr->num_sge; i++)
		total += wr->sg_list[i].length;
	if ((wr->send_flags & IBV_SEND_INLINE) &&
	    opcode != MLX5_OPCODE_RDMA_READ) {
		/* An inline segment: its byte count, then the bytes. */
		uint8_t *data = seg + sizeof(uint32_t);
		uint32_t bc = htobe32(total | MLX5_INLINE_SEG);
		size_t span = RTE_ALIGN_CEIL(sizeof(bc) + total, 16);

		if (total > q->max_inline || seg + span > wqe + SIM_DP_WQE_MAX)
			return -EINVAL;
		for (i = 0; i < wr->num_sge; i++) {
			memcpy(data, (void *)(uintptr_t)wr->sg_list[i].addr,
			       wr->sg_list[i].length);
			data += wr->sg_list[i].length;
		}
		memcpy(seg, &bc, sizeof(bc));
		memset(data, 0, span - sizeof(bc) - total);
		seg += span;
	} else {
		for (i = 0; i < wr->num_sge; i++) {
			struct mlx5_wqe_data_seg *d = (void *)seg;

			/* libmlx5 leaves out empty entries. */
			if (wr->sg_list[i].length == 0)
				continue;
			d->byte_count = htobe32(wr->sg_list[i].length);
			d->lkey = htobe32(wr->sg_list[i].lkey);
			d->addr = htobe64(wr->sg_list[i].addr);
			seg += sizeof(*d);
		}
	}
	ctrl->qpn_ds =
		htobe32(q->qp->qp_num << 8 | (uint32_t)((seg - wqe) / 16));
	ctrl->opmod_idx_opcode =
		htobe32((q->sq_pi & 0xffff) << 8 | (uint32_t)opcode);
	ctrl->fm_ce_se =
		((wr->send_flags & IBV_SEND_SIGNALED) || q->sig_all ?
			 MLX5_WQE_CTRL_CQ_UPDATE :
			 0) |
		(wr->send_flags & IBV_SEND_SOLICITED ? MLX5_WQE_CTRL_SOLICITED :
						       0) |
		(wr->send_flags & IBV_SEND_FENCE ? MLX5_WQE_CTRL_FENCE : 0);
	if (opcode == MLX5_OPCODE_SEND_IMM ||
	    opcode == MLX5_OPCODE_RDMA_WRITE_IMM)
		ctrl->imm = wr->imm_data;
	return (int)(seg - wqe);
}

/* Ring the doorbell of @q: the record, then the BlueFlame register. */
static void
sim_dp_ring(struct sim_rdma_qp *q, const void *ctrl)
{
	uint64_t db;

	rte_io_wmb();
	q->dv.dbrec[MLX5_SND_DBR] = htobe32(q->sq_pi & 0xffff);
	rte_io_wmb();
	memcpy(&db, ctrl, sizeof(db));
	__atomic_store_n(
		(uint64_t *)(void *)((uint8_t *)q->dv.bf.reg + q->bf_off), db,
		__ATOMIC_RELEASE);
	q->bf_off ^= q->dv.bf.size;
}

int
sim_rdma_post_send(struct ibv_qp *qp, struct ibv_send_wr *wr,
		   struct ibv_send_wr **bad)
{
	struct sim_rdma_qp *q = sim_dp_qp(qp);
	uint8_t wqe[SIM_DP_WQE_MAX] __rte_aligned(16);
	uint8_t last[8] = { 0 };
	bool posted = false;
	int err = 0;

	if (q == NULL) {
		*bad = wr;
		return EINVAL;
	}
	pthread_spin_lock(&q->sq_lock);
	for (; wr != NULL; wr = wr->next) {
		uint32_t n = q->dv.sq.wqe_cnt, bbs, i;
		int opcode = sim_dp_opcode(wr->opcode);
		int len;

		len = opcode < 0 ? -EINVAL : sim_dp_build(q, wr, opcode, wqe);
		if (len < 0) {
			err = -len;
			break;
		}
		bbs = RTE_ALIGN_CEIL((uint32_t)len, SIM_DP_WQEBB) /
		      SIM_DP_WQEBB;
		if (q->sq_pi + bbs - q->sq_tail > n) {
			err = ENOMEM;
			break;
		}
		for (i = 0; i < bbs; i++)
			memcpy((uint8_t *)q->dv.sq.buf +
				       (size_t)((q->sq_pi + i) & (n - 1)) *
					       SIM_DP_WQEBB,
			       wqe + (size_t)i * SIM_DP_WQEBB, SIM_DP_WQEBB);
		q->sq_wrid[q->sq_pi & (n - 1)] = wr->wr_id;
		q->sq_next[q->sq_pi & (n - 1)] = q->sq_pi + bbs;
		q->sq_pi += bbs;
		memcpy(last, wqe, sizeof(last));
		posted = true;
	}
	if (posted)
		sim_dp_ring(q, last);
	pthread_spin_unlock(&q->sq_lock);
	if (err != 0)
		*bad = wr;
	return err;
}

int
sim_rdma_post_recv(struct ibv_qp *qp, struct ibv_recv_wr *wr,
		   struct ibv_recv_wr **bad)
{
	struct sim_rdma_qp *q = sim_dp_qp(qp);
	bool posted = false;
	int err = 0;

	if (q == NULL) {
		*bad = wr;
		return EINVAL;
	}
	pthread_spin_lock(&q->rq_lock);
	for (; wr != NULL; wr = wr->next) {
		uint32_t n = q->dv.rq.wqe_cnt, k = 0;
		struct mlx5_wqe_data_seg *d;
		int i;

		if (n == 0 || q->rq_head - q->rq_tail >= n) {
			err = ENOMEM;
			break;
		}
		if (wr->num_sge < 0 || (uint32_t)wr->num_sge > q->rq_sge) {
			err = EINVAL;
			break;
		}
		d = (void *)((uint8_t *)q->dv.rq.buf +
			     (size_t)(q->rq_head & (n - 1)) * q->dv.rq.stride);
		for (i = 0; i < wr->num_sge; i++) {
			if (wr->sg_list[i].length == 0)
				continue;
			d[k].byte_count = htobe32(wr->sg_list[i].length);
			d[k].lkey = htobe32(wr->sg_list[i].lkey);
			d[k].addr = htobe64(wr->sg_list[i].addr);
			k++;
		}
		if (k < q->rq_sge) {
			d[k].byte_count = 0;
			d[k].lkey = htobe32(MLX5_INVALID_LKEY);
			d[k].addr = 0;
		}
		q->rq_wrid[q->rq_head & (n - 1)] = wr->wr_id;
		q->rq_head++;
		posted = true;
	}
	if (posted) {
		rte_io_wmb();
		q->dv.dbrec[MLX5_RCV_DBR] = htobe32(q->rq_head & 0xffff);
	}
	pthread_spin_unlock(&q->rq_lock);
	if (err != 0)
		*bad = wr;
	return err;
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

/* The work completion of the send WQE @idx of @q: its wr_id, the tail. */
static void
sim_dp_sq_done(struct sim_rdma_qp *q, uint16_t idx, struct ibv_wc *wc)
{
	uint32_t slot = idx & (q->dv.sq.wqe_cnt - 1);

	wc->wr_id = q->sq_wrid[slot];
	q->sq_tail = q->sq_next[slot];
}

/* The next receive of @q completes. */
static void
sim_dp_rq_done(struct sim_rdma_qp *q, struct ibv_wc *wc)
{
	wc->wr_id = q->rq_wrid[q->rq_tail & (q->dv.rq.wqe_cnt - 1)];
	q->rq_tail++;
}

/* @wc of @cqe; false if its QP is gone (the CQE is dropped). */
static bool
sim_dp_wc(struct ibv_cq *cq, const struct mlx5_cqe64 *cqe, struct ibv_wc *wc)
{
	struct mlx5_sim_ctx *sctx = mlx5_sim_ctx_get(cq->context);
	uint8_t opcode = cqe->op_own >> 4;
	uint32_t qpn = sim_dp_cqe_qpn(cqe);
	struct mlx5_sim_vobj *v;
	struct sim_rdma_qp *q;

	v = sctx != NULL ?
		    mlx5_sim_vobj_find(sctx->file, MLX5_SIM_OBJ_QP, qpn) :
		    NULL;
	q = v != NULL ? v->prov : NULL;
	if (q == NULL)
		return false;
	memset(wc, 0, sizeof(*wc));
	wc->qp_num = qpn;
	switch (opcode) {
	case MLX5_CQE_REQ:
		sim_dp_sq_done(q, be16toh(cqe->wqe_counter), wc);
		switch (be32toh(cqe->sop_drop_qpn) >> 24) {
		case MLX5_OPCODE_RDMA_WRITE:
		case MLX5_OPCODE_RDMA_WRITE_IMM:
			wc->opcode = IBV_WC_RDMA_WRITE;
			break;
		case MLX5_OPCODE_RDMA_READ:
			wc->opcode = IBV_WC_RDMA_READ;
			wc->byte_len = be32toh(cqe->byte_cnt);
			break;
		default:
			wc->opcode = IBV_WC_SEND;
			break;
		}
		break;
	case MLX5_CQE_RESP_SEND:
	case MLX5_CQE_RESP_SEND_IMM:
	case MLX5_CQE_RESP_WR_IMM:
		sim_dp_rq_done(q, wc);
		wc->opcode = opcode == MLX5_CQE_RESP_WR_IMM ?
				     IBV_WC_RECV_RDMA_WITH_IMM :
				     IBV_WC_RECV;
		wc->byte_len = be32toh(cqe->byte_cnt);
		wc->src_qp = be32toh(cqe->flags_rqpn) & 0xffffff;
		if (opcode != MLX5_CQE_RESP_SEND) {
			wc->wc_flags |= IBV_WC_WITH_IMM;
			wc->imm_data = cqe->imm_inval_pkey;
		}
		break;
	case MLX5_CQE_REQ_ERR:
	case MLX5_CQE_RESP_ERR: {
		const struct mlx5_err_cqe *e = (const void *)cqe;

		if (opcode == MLX5_CQE_REQ_ERR)
			sim_dp_sq_done(q, be16toh(e->wqe_counter), wc);
		else
			sim_dp_rq_done(q, wc);
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
	pthread_spin_lock(&c->lock);
	ci0 = c->ci;
	while (got < n) {
		struct mlx5_cqe64 *cqe = sim_dp_cqe(c, c->ci);

		if (cqe == NULL)
			break;
		c->ci++;
		if (sim_dp_wc(cq, cqe, &wc[got]))
			got++;
	}
	if (c->ci != ci0) {
		rte_io_wmb();
		c->dv.dbrec[0] = htobe32(c->ci & 0xffffff);
	}
	pthread_spin_unlock(&c->lock);
	return got;
}
