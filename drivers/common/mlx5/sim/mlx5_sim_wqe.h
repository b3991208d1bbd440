/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * The engines' accesses to the application's rings under the one fault
 * guard of a doorbell (mlx5_sim_guard.h): send WQEs read ahead or one by
 * one, armed copies, memory-to-memory moves and CQE writes. Used by the QP engine
 * (mlx5_sim_engine.c) and the Ethernet SQ engine (mlx5_sim_sq.c).
 *
 * Each access is a call to a function that is not inlined and arms the
 * guard, which the caller pushed and set its jump on, only around the
 * access: a fault there comes back to the caller's MLX5_SIM_GUARD_SETJMP()
 * with the guard disarmed; the caller knows from its own state which
 * access it was.
 */

#ifndef MLX5_SIM_WQE_H_
#define MLX5_SIM_WQE_H_

#include <string.h>

#include <rte_branch_prediction.h>
#include <rte_byteorder.h>
#include <rte_common.h>

#include "mlx5_sim_guard.h"
#include "mlx5_sim_priv.h"

/*
 * Blocks of a send ring read ahead in one copy: 2 KiB, under the size
 * where the C library's memcpy() turns to "rep movsb" (which tools such
 * as callgrind count byte by byte).
 */
#define MLX5_SIM_READ_AHEAD 32

/*
 * The engine's copies of a send ring: the blocks read ahead (ring blocks
 * first..), and the one WQE read alone (mlx5_sim_wqe_fetch()).
 */
struct mlx5_sim_ahead {
	uint32_t first;
	uint32_t len;
	uint8_t blocks[MLX5_SIM_READ_AHEAD * MLX5_SIM_WQEBB] __rte_aligned(16);
	/* Whole basic blocks. */
	uint8_t alone[RTE_ALIGN_CEIL(MLX5_SIM_WQE_MAX_BYTES, MLX5_SIM_WQEBB)]
		__rte_aligned(16);
};

/*
 * Read ahead into @a the blocks of ring @sq (@n blocks) from block @idx,
 * that of send counter @ci, up to doorbell counter @pi, the ring's end
 * and MLX5_SIM_READ_AHEAD blocks, under guard @g, armed.
 */
void mlx5_sim_read_ahead(struct mlx5_sim_guard *g, struct mlx5_sim_ahead *a,
			 const uint8_t *sq, uint32_t n, uint32_t idx,
			 uint32_t pi, uint32_t ci);

/*
 * Copy the WQE at send counter @ci of ring @sq (@n blocks, queue @qn)
 * into @raw, under guard @g, armed only while the ring is copied: its
 * first block, then, if that is a WQE of this queue, its other blocks.
 * The caller parses @raw (the same answer: the engine's copy).
 */
void mlx5_sim_wqe_fetch(struct mlx5_sim_guard *g, const uint8_t *sq,
			uint32_t n, uint32_t qn, uint16_t ci, uint8_t *raw);

/*
 * The one cipher or copy of move @m (mlx5_sim_xfer_mem_prep()) under
 * guard @g, armed; then @m->ret: 0, or the cipher refused the key before
 * its first byte (the caller moves the staged way, which reports).
 */
void mlx5_sim_xmove_armed(struct mlx5_sim_guard *g, struct mlx5_sim_xmove *m);

/* Copy @len bytes from @src to @dst under guard @g, armed. */
void mlx5_sim_copy_armed(struct mlx5_sim_guard *g, void *dst,
			 const void *src, size_t len);

/*
 * Put CQE @tmpl (owner bit last) in the next slot of @cq under guard @g,
 * armed: true, or false when the CQ is full (overrun: nothing written,
 * mlx5_sim_cq_overrun() does the rest). The consumer counter of the CQ's
 * doorbell record is read only when the one read last says the CQ is
 * full: it only moves forward, so the answer is the same.
 */
bool mlx5_sim_cqe_put_armed(struct mlx5_sim_guard *g, struct mlx5_sim_cq *cq,
			    const struct mlx5_cqe64 *tmpl);

/*
 * Receive CQE @cqe for @cq, which compresses (cq->zip), under guard @g
 * (not armed): into the CQ's open session, else a new one (the session
 * it ends written first), listed on @card until
 * mlx5_sim_cq_zip_close_all() writes it; a CQE the ring has no room for
 * then overruns.
 */
void mlx5_sim_cq_zip_put_armed(struct mlx5_sim_guard *g,
			       struct mlx5_sim_card *card,
			       struct mlx5_sim_cq *cq,
			       const struct mlx5_cqe64 *cqe);

/*
 * The end of an engine's doorbell on @card: the open sessions written,
 * each under a guard of its own (a fault stops that CQ: status 0xa).
 */
void mlx5_sim_cq_zip_close_all(struct mlx5_sim_card *card);

/* A CQE of @cq lost to an overrun: without oi the CQ stops (error). */
static inline void
mlx5_sim_cq_overrun(struct mlx5_sim_cq *cq)
{
	cq->lost++;
	if (!cq->oi)
		cq->status = MLX5_SIM_CQ_STATUS_OVERFLOW;
}

/*
 * The requester CQE of the WQE of @opcode and wqe_index @index of queue
 * @qn in @cqe: good (@byte_cnt bytes, timestamp @ts), or an error CQE
 * with @syndrome.
 */
static inline void
mlx5_sim_req_cqe(struct mlx5_cqe64 *cqe, uint32_t qn, uint8_t opcode,
		 uint16_t index, uint8_t syndrome, uint32_t byte_cnt,
		 uint64_t ts)
{
	memset(cqe, 0, sizeof(*cqe));
	if (syndrome != 0) {
		struct mlx5_err_cqe *err = (struct mlx5_err_cqe *)cqe;

		err->syndrome = syndrome;
		err->s_wqe_opcode_qpn = rte_cpu_to_be_32((uint32_t)opcode
							 << 24 | qn);
		err->wqe_counter = rte_cpu_to_be_16(index);
		err->op_own = MLX5_CQE_REQ_ERR << 4;
	} else {
		cqe->byte_cnt = rte_cpu_to_be_32(byte_cnt);
		cqe->sop_drop_qpn = rte_cpu_to_be_32((uint32_t)opcode << 24 |
						     qn);
		cqe->wqe_counter = rte_cpu_to_be_16(index);
		cqe->timestamp = rte_cpu_to_be_64(ts);
		cqe->op_own = MLX5_CQE_REQ << 4;
	}
}

/*
 * The control segment at @bytes, then @bytes as WQE @w of queue @qn on a
 * ring of @n blocks: 0, or -EINVAL if it cannot be one (@w->bbs 1; its
 * opcode and control segment as they are, for the error CQE).
 */
static __rte_always_inline int
mlx5_sim_wqe_parse(const uint8_t *bytes, uint32_t n, uint32_t qn,
		   struct mlx5_sim_wqe *w)
{
	const struct mlx5_wqe_ctrl_seg *ctrl = (const void *)bytes;
	uint32_t qpn_ds = rte_be_to_cpu_32(ctrl->qpn_ds);
	uint32_t ds = qpn_ds & 0x3f;
	/* Four 16-byte segments a block; ds 0 gives 0 blocks. */
	uint32_t bbs = (ds + 3) >> 2;

	w->bytes = bytes;
	/* The opcode: the last byte of big-endian opmod_idx_opcode. */
	w->opcode = bytes[offsetof(struct mlx5_wqe_ctrl_seg,
				   opmod_idx_opcode) + 3];
	w->ds = ds;
	w->bbs = bbs;
	/* One test for ds 0 (bbs - 1 wraps) and more blocks than the ring. */
	if (unlikely((qpn_ds >> 8) != qn || bbs - 1 >= n)) {
		w->bbs = 1;
		return -EINVAL;
	}
	return 0;
}

/* The wqe_index of WQE @w's control segment. */
static __rte_always_inline uint16_t
mlx5_sim_wqe_index(const struct mlx5_sim_wqe *w)
{
	const struct mlx5_wqe_ctrl_seg *ctrl = (const void *)w->bytes;

	return (rte_be_to_cpu_32(ctrl->opmod_idx_opcode) >> 8) & 0xffff;
}

/* WQE @w asks for a completion (MLX5_WQE_CTRL_CQ_UPDATE). */
static __rte_always_inline bool
mlx5_sim_wqe_signaled(const struct mlx5_sim_wqe *w)
{
	const struct mlx5_wqe_ctrl_seg *ctrl = (const void *)w->bytes;

	return (ctrl->fm_ce_se & MLX5_WQE_CTRL_CQ_UPDATE) != 0;
}

/*
 * In @w, the WQE at send counter @ci that the ring could not give (its
 * read faulted): not a WQE, one block, opcode 0 and wqe_index @ci in the
 * error CQE, from control segment @ctrl, which the caller keeps.
 */
static inline void
mlx5_sim_wqe_unread(struct mlx5_sim_wqe *w, struct mlx5_wqe_ctrl_seg *ctrl,
		    uint16_t ci)
{
	memset(ctrl, 0, sizeof(*ctrl));
	ctrl->opmod_idx_opcode = rte_cpu_to_be_32((uint32_t)ci << 8);
	w->bytes = (const uint8_t *)ctrl;
	w->bbs = 1;
	w->opcode = 0;
	w->ds = 0;
}

/*
 * The WQE at send counter @ci (doorbell counter @pi) of ring @ring (@n
 * blocks, queue @qn) in @w: from the blocks read ahead in @a (read again
 * when it is not there), or, with @per_wqe or for a WQE across the
 * ring's end or past the read-ahead, read alone into a->alone. 0, or
 * -EINVAL if it cannot be a WQE of this queue (@w->bbs 1). A fault jumps
 * to the caller's guard @g. With @per_wqe, a->len is 0 (the caller
 * empties the read-ahead when it sets it): one test for both.
 */
static __rte_always_inline int
mlx5_sim_wqe_next(struct mlx5_sim_guard *g, struct mlx5_sim_ahead *a,
		  const uint8_t *ring, uint32_t n, uint32_t qn, uint16_t ci,
		  uint32_t pi, bool per_wqe, struct mlx5_sim_wqe *w)
{
	uint32_t idx = ci & (n - 1);
	uint32_t at = idx - a->first;
	int ret;

	if (unlikely(at >= a->len)) {
		if (per_wqe)
			goto alone;
		mlx5_sim_read_ahead(g, a, ring, n, idx, pi, ci);
		at = 0;
	}
	ret = mlx5_sim_wqe_parse(a->blocks + (size_t)at * MLX5_SIM_WQEBB,
				 n, qn, w);
	if (likely(ret != 0 || at + w->bbs <= a->len))
		return ret;
	/* Partly read ahead: read again from its first block. */
	if (at != 0) {
		mlx5_sim_read_ahead(g, a, ring, n, idx, pi, ci);
		ret = mlx5_sim_wqe_parse(a->blocks, n, qn, w);
		if (ret != 0 || w->bbs <= a->len)
			return ret;
	}
	/* Across the ring's end or past the doorbell: alone. */
alone:
	mlx5_sim_wqe_fetch(g, ring, n, qn, ci, a->alone);
	return mlx5_sim_wqe_parse(a->alone, n, qn, w);
}

#endif /* MLX5_SIM_WQE_H_ */
