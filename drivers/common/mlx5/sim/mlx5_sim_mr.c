/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * Verbs memory regions: ibv_reg_mr() as the kernel does it (pin, then
 * CREATE_MKEY of an mkey over the process's virtual addresses), on-demand
 * paging and the implicit MR, ibv_rereg_mr(), ibv_import_mr() (another
 * handle of an MR of the same file, on the PD it was registered on) and
 * ibv_dereg_mr().
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <rte_common.h>

#include "mlx5_sim_priv.h"

/* Verbs memory regions: an mkey over the process's virtual addresses. */

#define SIM_MR_ACCESS (IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | \
		       IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_ATOMIC | \
		       IBV_ACCESS_MW_BIND | IBV_ACCESS_HUGETLB | \
		       IBV_ACCESS_OPTIONAL_RANGE | IBV_ACCESS_ON_DEMAND)

/*
 * rdma-core's implicit ODP MR: address 0 (NULL), length SIZE_MAX, with
 * IBV_ACCESS_ON_DEMAND; it translates every address of the process.
 */
static bool
sim_mr_implicit(const void *addr, size_t length, int access)
{
	return addr == NULL && length == SIZE_MAX &&
	       (access & IBV_ACCESS_ON_DEMAND);
}

struct ibv_mr *
mlx5_sim_reg_mr(struct ibv_pd *pd, void *addr, size_t length, int access)
{
	struct mlx5_sim_pd *spd = mlx5_sim_pd_get(pd);
	struct mlx5_sim_vhca *vhca;
	struct mlx5_sim_mkey *mkey;
	struct mlx5_sim_mr *mr;
	bool odp = access & IBV_ACCESS_ON_DEMAND;
	bool implicit = sim_mr_implicit(addr, length, access);

	if (spd == NULL || length == 0 ||
	    (uintptr_t)addr + length - 1 < (uintptr_t)addr ||
	    /* The whole space is an implicit ODP MR or nothing. */
	    (addr == NULL && length == SIZE_MAX && !implicit) ||
	    (access & ~SIM_MR_ACCESS) ||
	    /* Remote write and atomics need local write (IB spec). */
	    ((access & (IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_ATOMIC)) &&
	     !(access & IBV_ACCESS_LOCAL_WRITE))) {
		errno = EINVAL;
		return NULL;
	}
	vhca = spd->obj->file->vhca;
	/* The kernel refuses ODP on a device without it (ib_check_mr_access). */
	if (odp && !vhca->caps.odp) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	/*
	 * ODP pins nothing: pages are checked when the device touches them.
	 * Otherwise the pin needs write access for a writable registration
	 * (the kernel's ib_access_writable()).
	 */
	errno = odp ? 0 : mlx5_sim_range_pinnable(addr, length,
		access & (IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
			  IBV_ACCESS_REMOTE_ATOMIC));
	if (errno != 0)
		return NULL;
	mr = mlx5_sim_mr_make(spd, pd, access, (uintptr_t)addr,
			      implicit ? 0 : length, addr, length, &mkey);
	if (mr == NULL)
		return NULL;
	mkey->kind = MLX5_SIM_MKEY_VA;
	mkey->length64 = implicit;
	mkey->odp = odp;
	mlx5_sim_vhca_unlock(vhca);
	return &mr->ibmr;
}

struct mlx5_sim_mr *
mlx5_sim_mr_make(struct mlx5_sim_pd *spd, struct ibv_pd *pd,
		 unsigned int access, uint64_t start, uint64_t len,
		 void *addr, size_t length, struct mlx5_sim_mkey **out)
{
	struct mlx5_sim_file *file = spd->obj->file;
	struct mlx5_sim_mkey *mkey = NULL;
	struct mlx5_sim_mr *mr = calloc(1, sizeof(*mr));
	int ret;

	if (mr == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	ret = mlx5_sim_verbs_mkey_create(spd, MLX5_SIM_ORIGIN_MR,
					 MLX5_SIM_SYND_OK, &mkey);
	if (ret != 0) {
		free(mr);
		errno = ret;
		return NULL;
	}
	mkey->access_mode = MLX5_MKC_ACCESS_MODE_MTT;
	mkey->lw = !!(access & IBV_ACCESS_LOCAL_WRITE);
	mkey->rr = !!(access & IBV_ACCESS_REMOTE_READ);
	mkey->rw = !!(access & IBV_ACCESS_REMOTE_WRITE);
	mkey->a = !!(access & IBV_ACCESS_REMOTE_ATOMIC);
	mkey->start = start;
	mkey->len = len;
	file->vhca->live.mrs++;
	mr->ibmr.context = pd->context;
	mr->ibmr.pd = pd;
	mr->ibmr.addr = addr;
	mr->ibmr.length = length;
	mr->ibmr.handle = mkey->index;
	mr->ibmr.lkey = mkey->index << 8 | mkey->variant;
	mr->ibmr.rkey = mr->ibmr.lkey;
	mr->magic = MLX5_SIM_MAGIC_MR;
	mr->file = file;
	mr->index = mkey->index;
	mr->serial = mkey->serial;
	TAILQ_INSERT_TAIL(&file->mrs, mr, next);
	*out = mkey;
	return mr;
}

/* The access flags of @mkey as verbs gave them. */
static int
sim_mr_access(const struct mlx5_sim_mkey *mkey)
{
	return (mkey->lw ? IBV_ACCESS_LOCAL_WRITE : 0) |
	       (mkey->rr ? IBV_ACCESS_REMOTE_READ : 0) |
	       (mkey->rw ? IBV_ACCESS_REMOTE_WRITE : 0) |
	       (mkey->a ? IBV_ACCESS_REMOTE_ATOMIC : 0);
}

int
mlx5_sim_rereg_mr(struct ibv_mr *ibmr, int flags, struct ibv_pd *pd,
		  void *addr, size_t length, int access)
{
	const int known = IBV_REREG_MR_CHANGE_TRANSLATION |
			  IBV_REREG_MR_CHANGE_PD | IBV_REREG_MR_CHANGE_ACCESS;
	struct mlx5_sim_pd *spd = NULL;
	struct mlx5_sim_mkey *mkey;
	struct mlx5_sim_vhca *vhca;
	struct mlx5_sim_mr *mr;
	int err = 0;

	if (ibmr == NULL || flags == 0 || (flags & ~known))
		return EINVAL;
	mr = MLX5_SIM_OF(ibmr, struct mlx5_sim_mr, ibmr);
	if (mr->magic != MLX5_SIM_MAGIC_MR)
		return EINVAL;
	if (flags & IBV_REREG_MR_CHANGE_PD) {
		spd = mlx5_sim_pd_get(pd);
		if (spd == NULL || spd->obj->file != mr->file)
			return EINVAL;
	}
	if ((flags & IBV_REREG_MR_CHANGE_TRANSLATION) &&
	    (length == 0 || (uintptr_t)addr + length - 1 < (uintptr_t)addr))
		return EINVAL;
	vhca = mr->file->vhca;
	mlx5_sim_vhca_lock(vhca);
	mkey = mlx5_sim_mkey_at(vhca, mr->index);
	if (mkey == NULL || mkey->serial != mr->serial) {
		err = EINVAL;
		goto out;
	}
	/* An on-demand MR keeps what it was registered with. */
	if (mkey->odp || mkey->length64) {
		err = EOPNOTSUPP;
		goto out;
	}
	/* Only an MR of the process's memory (the kernel: not a DM MR). */
	if (mkey->kind != MLX5_SIM_MKEY_VA) {
		err = EINVAL;
		goto out;
	}
	if (!(flags & IBV_REREG_MR_CHANGE_ACCESS))
		access = sim_mr_access(mkey);
	if ((access & ~SIM_MR_ACCESS) || (access & IBV_ACCESS_ON_DEMAND) ||
	    ((access & (IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_ATOMIC)) &&
	     !(access & IBV_ACCESS_LOCAL_WRITE))) {
		err = EINVAL;
		goto out;
	}
	if (!(flags & IBV_REREG_MR_CHANGE_TRANSLATION)) {
		addr = (void *)(uintptr_t)mkey->start;
		length = mkey->len;
	}
	/* The pages pinned again for the rights asked (a new translation). */
	err = mlx5_sim_range_pinnable(addr, length,
		access & (IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
			  IBV_ACCESS_REMOTE_ATOMIC));
	if (err != 0)
		goto out;
	if (spd != NULL && spd->obj != mkey->pd) {
		mkey->pd->users--;
		mkey->pd->verbs_users--;
		spd->obj->users++;
		spd->obj->verbs_users++;
		mkey->pd = spd->obj;
		mkey->pdn = spd->obj->pdn;
	}
	mkey->lw = !!(access & IBV_ACCESS_LOCAL_WRITE);
	mkey->rr = !!(access & IBV_ACCESS_REMOTE_READ);
	mkey->rw = !!(access & IBV_ACCESS_REMOTE_WRITE);
	mkey->a = !!(access & IBV_ACCESS_REMOTE_ATOMIC);
	mkey->start = (uintptr_t)addr;
	mkey->len = length;
	/* Every cached translation of the key is stale. */
	mlx5_sim_xgen_bump(vhca);
	if (spd != NULL)
		ibmr->pd = pd;
	ibmr->addr = addr;
	ibmr->length = length;
out:
	mlx5_sim_vhca_unlock(vhca);
	return err;
}

struct ibv_mr *
mlx5_sim_import_mr(struct ibv_pd *pd, uint32_t mr_handle)
{
	struct mlx5_sim_pd *spd = mlx5_sim_pd_get(pd);
	struct mlx5_sim_mr *mr, *imr;
	struct mlx5_sim_mkey *mkey;
	struct mlx5_sim_file *file;

	if (spd == NULL) {
		errno = EINVAL;
		return NULL;
	}
	file = spd->obj->file;
	imr = calloc(1, sizeof(*imr));
	if (imr == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	mlx5_sim_vhca_lock(file->vhca);
	/* The file's MR of that handle, on the very PD given. */
	TAILQ_FOREACH(mr, &file->mrs, next) {
		mkey = mlx5_sim_mkey_at(file->vhca, mr->index);
		if (mr->ibmr.handle == mr_handle && mkey != NULL &&
		    mkey->serial == mr->serial && mkey->pd == spd->obj)
			break;
	}
	if (mr == NULL) {
		mlx5_sim_vhca_unlock(file->vhca);
		free(imr);
		errno = EINVAL;
		return NULL;
	}
	*imr = *mr;
	imr->ibmr.context = pd->context;
	imr->ibmr.pd = pd;
	imr->imported = true;
	mlx5_sim_vhca_unlock(file->vhca);
	return &imr->ibmr;
}

void
mlx5_sim_unimport_mr(struct ibv_mr *ibmr)
{
	struct mlx5_sim_mr *mr;

	if (ibmr == NULL)
		return;
	mr = MLX5_SIM_OF(ibmr, struct mlx5_sim_mr, ibmr);
	if (mr->magic != MLX5_SIM_MAGIC_MR || !mr->imported)
		return;
	mr->magic = MLX5_SIM_MAGIC_DEAD;
	free(mr);
}

int
mlx5_sim_dereg_mr(struct ibv_mr *ibmr)
{
	struct mlx5_sim_vhca *vhca;
	struct mlx5_sim_mr *mr;
	int err;

	if (ibmr == NULL)
		return EINVAL;
	mr = MLX5_SIM_OF(ibmr, struct mlx5_sim_mr, ibmr);
	if (mr->magic != MLX5_SIM_MAGIC_MR)
		return EINVAL;
	vhca = mr->file->vhca;
	/* An imported handle destroys the shared MR too (its owner's
	 * handle then finds it gone). */
	err = mlx5_sim_verbs_mkey_destroy(vhca, mr->index, mr->serial);
	if (err != 0)
		return err;
	if (!mr->imported)
		TAILQ_REMOVE(&mr->file->mrs, mr, next);
	mlx5_sim_vhca_unlock(vhca);
	mr->magic = MLX5_SIM_MAGIC_DEAD;
	free(mr);
	return 0;
}
