/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * Queue counters: ALLOC_Q_COUNTER, DEALLOC_Q_COUNTER and QUERY_Q_COUNTER.
 *
 * A vHCA has MLX5_SIM_MAX_Q_COUNTERS counter sets, ids 1..128 (the
 * max_qp_cnt it reports; rqc.counter_set_id is 8 bits and 0 means "no
 * counter"). A set belongs to the file that allocated it: only that file
 * may query or free it or make its RQs count on it, and the set is freed
 * when the file closes. RQs name a set at CREATE_RQ or with MODIFY_RQ's
 * counter-set bit (mlx5_sim_eth.c).
 *
 * Counters: out_of_buffer, the one an Ethernet RQ feeds (a frame arriving
 * with no posted receive WQE is dropped and counted), incremented by the
 * receive path through mlx5_sim_q_counter_out_of_buffer(). The other
 * counters of query_q_counter_out are the RDMA transport's (RDMA requests
 * received, retries, NAKs, error and flush CQEs of QPs): RQs do not feed
 * them and the device answers 0.
 *
 * Freeing a set while an RQ still names it is refused (BAD_RES_STATE):
 * the model's choice, which no public source settles (the kernel and DPDK
 * always free the RQs first), made so that no RQ keeps counting on a set
 * that was freed and maybe handed to another file.
 */

#include <stdlib.h>

#include <rte_common.h>

#include "mlx5_sim_priv.h"

/* The set @id of @file, or NULL. */
static struct mlx5_sim_qcnt *
sim_qcnt_of(struct mlx5_sim_file *file, uint32_t id)
{
	struct mlx5_sim_qcnt *q;

	if (id == 0 || id > MLX5_SIM_MAX_Q_COUNTERS)
		return NULL;
	q = &file->vhca->qcnts[id - 1];
	return q->file == file ? q : NULL;
}

static uint32_t
sim_qcnt_alloc(struct mlx5_sim_file *file, void *out,
	       struct mlx5_sim_devx_obj *obj)
{
	struct mlx5_sim_vhca *vhca = file->vhca;

	/* Ids are handed out in turn, so a stale one is rarely reused. */
	for (unsigned int n = 0; n < MLX5_SIM_MAX_Q_COUNTERS; n++) {
		unsigned int i = (vhca->qcnt_next + n) %
				 MLX5_SIM_MAX_Q_COUNTERS;
		struct mlx5_sim_qcnt *q = &vhca->qcnts[i];

		if (q->file != NULL)
			continue;
		*q = (struct mlx5_sim_qcnt){ .file = file };
		vhca->qcnt_next = (uint8_t)((i + 1) % MLX5_SIM_MAX_Q_COUNTERS);
		vhca->live.q_counters++;
		MLX5_SET(alloc_q_counter_out, out, counter_set_id, i + 1);
		obj->kind = MLX5_SIM_OBJ_QCNT;
		obj->index = i + 1;
		return MLX5_SIM_SYND_OK;
	}
	return MLX5_SIM_SYND_QCNT_TABLE_FULL;
}

static void
sim_qcnt_free(struct mlx5_sim_vhca *vhca, struct mlx5_sim_qcnt *q)
{
	*q = (struct mlx5_sim_qcnt){ .file = NULL };
	vhca->live.q_counters--;
}

static uint32_t
sim_qcnt_dealloc(struct mlx5_sim_file *file, const void *in)
{
	struct mlx5_sim_qcnt *q = sim_qcnt_of(file,
		MLX5_GET(dealloc_q_counter_in, in, counter_set_id));

	if (q == NULL)
		return MLX5_SIM_SYND_QCNT_UNKNOWN;
	if (q->users != 0)
		return MLX5_SIM_SYND_QCNT_BUSY;
	sim_qcnt_free(file->vhca, q);
	return MLX5_SIM_SYND_OK;
}

static uint32_t
sim_qcnt_query(struct mlx5_sim_file *file, const void *in, void *out)
{
	struct mlx5_sim_qcnt *q = sim_qcnt_of(file,
		MLX5_GET(query_q_counter_in, in, counter_set_id));

	if (q == NULL)
		return MLX5_SIM_SYND_QCNT_UNKNOWN;
	MLX5_SET(query_q_counter_out, out, out_of_buffer, q->out_of_buffer);
	/* Read and cleared in one command: no count falls in between. */
	if (MLX5_GET(query_q_counter_in, in, clear))
		q->out_of_buffer = 0;
	return MLX5_SIM_SYND_OK;
}

uint32_t
mlx5_sim_cmd_qcnt(struct mlx5_sim_file *file, uint16_t opcode,
		  const void *in, void *out, struct mlx5_sim_devx_obj *obj)
{
	switch (opcode) {
	case MLX5_CMD_OP_ALLOC_Q_COUNTER:
		return sim_qcnt_alloc(file, out, obj);
	case MLX5_CMD_OP_DEALLOC_Q_COUNTER:
		return sim_qcnt_dealloc(file, in);
	case MLX5_CMD_OP_QUERY_Q_COUNTER:
		return sim_qcnt_query(file, in, out);
	default:
		return MLX5_SIM_SYND_BAD_OPCODE;
	}
}

uint32_t
mlx5_sim_qcnt_check(struct mlx5_sim_file *file, uint8_t id)
{
	if (id == 0 || sim_qcnt_of(file, id) != NULL)
		return MLX5_SIM_SYND_OK;
	return MLX5_SIM_SYND_ETH_COUNTER;
}

void
mlx5_sim_qcnt_hold(struct mlx5_sim_vhca *vhca, uint8_t id, int d)
{
	if (id == 0 || id > MLX5_SIM_MAX_Q_COUNTERS ||
	    vhca->qcnts[id - 1].file == NULL)
		return;
	vhca->qcnts[id - 1].users += d;
}

void
mlx5_sim_qcnt_reclaim(struct mlx5_sim_vhca *vhca,
		      const struct mlx5_sim_devx_obj *obj)
{
	struct mlx5_sim_qcnt *q = sim_qcnt_of(obj->file, obj->index);

	/* The file's RQs went first: nothing names the set any more. */
	if (q == NULL)
		return;
	sim_qcnt_free(vhca, q);
	vhca->reclaimed++;
}

void
mlx5_sim_q_counter_out_of_buffer(struct mlx5_sim_vhca *vhca,
				 uint8_t counter_set_id)
{
	struct mlx5_sim_qcnt *q;

	if (counter_set_id == 0 || counter_set_id > MLX5_SIM_MAX_Q_COUNTERS)
		return;
	q = &vhca->qcnts[counter_set_id - 1];
	if (q->file != NULL)
		q->out_of_buffer++;
}
