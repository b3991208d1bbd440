/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * The device noticing doorbells as a NIC does. Software that does not know
 * the vdev adapter's kick hook (the rdma-core front's programs: rdma-core's
 * own tests, this project's rdma-core backend, DPDK's own mlx5 PMDs) rings
 * a doorbell as hardware expects it: the doorbell record, a write barrier,
 * then a plain 8-byte store to the UAR page's doorbell register. A thread
 * of the device, started by a front that needs it, watches the doorbell
 * registers of every UAR page (the two BlueFlame registers at 0x800 and
 * 0x900, as libmlx5 alternates them) and takes each value it finds there,
 * exchanged for 0, as one doorbell, delivered as the kick hook delivers
 * it. Two stores to one register before the thread reads it are one
 * doorbell: the engine reads each queue's doorbell record, so the later
 * covers the earlier of the same queue, and the queues of the page whose
 * record moved are run too, as hardware would have run them.
 */

#include <errno.h>
#include <pthread.h>
#include <string.h>
#include <time.h>

#include <rte_byteorder.h>

#include "mlx5_sim_priv.h"

/* The BlueFlame registers of a UAR page. */
static const uint32_t sim_db_offsets[] = { 0x800, 0x900 };

/* Idle polling interval: from 10 us, doubling to 1 ms. */
#define SIM_DB_IDLE_MIN_NS 10000L
#define SIM_DB_IDLE_MAX_NS 1000000L

static struct mlx5_sim_thread sim_db = MLX5_SIM_THREAD_INIT;
/*
 * Held by the thread for each pass over the vHCAs (card locks taken and
 * released inside): fork() waits for the pass to end, so that the child
 * never inherits a card lock the thread held. The child has no thread
 * (an empty poll of the front still takes its doorbells).
 */
static pthread_mutex_t sim_db_pass = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t sim_db_fork_once = PTHREAD_ONCE_INIT;

static void
sim_db_fork_prepare(void)
{
	/* The thread never holds both: no order to keep with it. */
	pthread_mutex_lock(&sim_db_pass);
	pthread_mutex_lock(&sim_db.lock);
}

static void
sim_db_fork_parent(void)
{
	pthread_mutex_unlock(&sim_db.lock);
	pthread_mutex_unlock(&sim_db_pass);
}

static void
sim_db_fork_child(void)
{
	sim_db.started = false;
	pthread_mutex_unlock(&sim_db.lock);
	pthread_mutex_unlock(&sim_db_pass);
}

static void
sim_db_fork_register(void)
{
	pthread_atfork(sim_db_fork_prepare, sim_db_fork_parent,
		       sim_db_fork_child);
}

/* The queue number a doorbell's 8 bytes name (qpn_ds, big-endian). */
static uint32_t
sim_db_qn(uint64_t db)
{
	return rte_be_to_cpu_32(((const uint32_t *)&db)[1]) >> 8;
}

/*
 * The queues of @uar's page other than those its doorbells named (@named,
 * @n of them): each runs what its doorbell record says was posted
 * (nothing if none), as hardware would have run the doorbell that a later
 * store to the same register covered.
 */
static void
sim_db_sweep_page(struct mlx5_sim_vhca *vhca, struct mlx5_sim_uar *uar,
		  const uint32_t *named, unsigned int n)
{
	uint32_t page = uar->dv.page_id, qn;

	for (qn = 0; qn < vhca->qps.size; qn++) {
		struct mlx5_sim_qp *qp =
			mlx5_sim_qnum_get(&vhca->qps, qn, MLX5_SIM_Q_QP);
		struct mlx5_sim_sq *sq =
			mlx5_sim_qnum_get(&vhca->qps, qn, MLX5_SIM_Q_SQ);
		unsigned int k;

		for (k = 0; k < n && named[k] != qn; k++)
			;
		if (k < n)
			continue;
		if (qp != NULL && qp->file == uar->file && qp->uar_page == page)
			mlx5_sim_engine_qp(vhca, qp);
		else if (sq != NULL && sq->wq.file == uar->file &&
			 sq->wq.uar_page == page)
			mlx5_sim_engine_sq(vhca, sq);
	}
}

/* Take the doorbells written to @uar's page: true if there was one. */
static bool
sim_db_scan_uar(struct mlx5_sim_vhca *vhca, struct mlx5_sim_uar *uar)
{
	uint32_t named[RTE_DIM(sim_db_offsets)];
	unsigned int i, n = 0;

	for (i = 0; i < RTE_DIM(sim_db_offsets); i++) {
		uint64_t *reg = (uint64_t *)(void *)((uint8_t *)uar->page +
						     sim_db_offsets[i]);
		uint64_t db = __atomic_exchange_n(reg, 0, __ATOMIC_ACQUIRE);

		if (db == 0)
			continue;
		mlx5_sim_uar_kick_locked(uar, db);
		named[n++] = sim_db_qn(db);
	}
	if (n != 0)
		sim_db_sweep_page(vhca, uar, named, n);
	return n != 0;
}

/* Take the doorbells written to the UAR pages of @vhca. */
static void
sim_db_scan_vhca(struct mlx5_sim_vhca *vhca, void *arg)
{
	bool *rang = arg;
	struct mlx5_sim_file *file;
	struct mlx5_sim_uar *uar;
	uint32_t pass;

	mlx5_sim_vhca_lock(vhca);
	pass = vhca->rnr_pass;
	TAILQ_FOREACH (file, &vhca->files, vhca_next) {
		if (file->ctx_uar != NULL)
			*rang |= sim_db_scan_uar(vhca, file->ctx_uar);
		TAILQ_FOREACH (uar, &file->uars, next)
			*rang |= sim_db_scan_uar(vhca, uar);
	}
	/*
	 * A pass of the device: sends waiting on a receiver try again, and
	 * receives posted to a QP in ERR are flushed. A scan that took
	 * doorbells was a pass already (each doorbell counts one): what
	 * stalled in its last doorbell waits for the next.
	 */
	if (vhca->rnr_pass == pass)
		vhca->rnr_pass++;
	if (vhca->rnr_waiters != 0 || vhca->err_qps)
		mlx5_sim_rc_pass(vhca);
	mlx5_sim_vhca_unlock(vhca);
}

void
mlx5_sim_doorbell_scan(void)
{
	bool rang = false;

	mlx5_sim_vhca_foreach(sim_db_scan_vhca, &rang);
}

static void *
sim_db_main(void *arg)
{
	long idle = SIM_DB_IDLE_MIN_NS;

	RTE_SET_USED(arg);
	pthread_mutex_lock(&sim_db.lock);
	while (!sim_db.stop) {
		struct timespec ts;
		bool rang = false;

		pthread_mutex_unlock(&sim_db.lock);
		pthread_mutex_lock(&sim_db_pass);
		mlx5_sim_vhca_foreach(sim_db_scan_vhca, &rang);
		pthread_mutex_unlock(&sim_db_pass);
		pthread_mutex_lock(&sim_db.lock);
		if (rang) {
			idle = SIM_DB_IDLE_MIN_NS;
			continue;
		}
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += idle;
		if (ts.tv_nsec >= 1000000000L) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000L;
		}
		if (!sim_db.stop)
			pthread_cond_timedwait(&sim_db.cond, &sim_db.lock, &ts);
		idle = idle * 2 > SIM_DB_IDLE_MAX_NS ? SIM_DB_IDLE_MAX_NS :
						       idle * 2;
	}
	pthread_mutex_unlock(&sim_db.lock);
	return NULL;
}

int
mlx5_sim_doorbell_watch(void)
{
	int ret;

	pthread_once(&sim_db_fork_once, sim_db_fork_register);
	pthread_mutex_lock(&sim_db.lock);
	ret = mlx5_sim_thread_start_locked(&sim_db, sim_db_main,
					   "the doorbell thread");
	pthread_mutex_unlock(&sim_db.lock);
	return -ret;
}

void
mlx5_sim_doorbell_stop(void)
{
	mlx5_sim_thread_stop(&sim_db);
}

int
mlx5_sim_thread_start_locked(struct mlx5_sim_thread *t, void *(*fn)(void *),
			     const char *what)
{
	int ret;

	if (t->stop)
		return ESRCH;
	if (t->started)
		return 0;
	ret = pthread_create(&t->thread, NULL, fn, NULL);
	if (ret != 0) {
		SIM_LOG(ERR, "cannot start %s: %s", what, strerror(ret));
		t->stop = true;
		return ret;
	}
	t->started = true;
	return 0;
}

void
mlx5_sim_thread_stop(struct mlx5_sim_thread *t)
{
	bool started;

	pthread_mutex_lock(&t->lock);
	t->stop = true;
	started = t->started;
	pthread_cond_signal(&t->cond);
	pthread_mutex_unlock(&t->lock);
	if (started)
		pthread_join(t->thread, NULL);
}
