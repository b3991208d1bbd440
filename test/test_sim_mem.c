/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * The software device and the process's memory: registration pins as the
 * kernel does (EFAULT for a hole, PROT_NONE, or a read-only page registered
 * for write), and a device access to memory the application unmapped or
 * protected after registering it ends in an error completion, never in a
 * crash of the process. Faults that are not device accesses still kill the
 * process as before.
 *
 * Memcheck reports the model's access to unmapped memory as an error before
 * the fault guard sees it, so the fault cases skip under valgrind
 * (MLX5_TEST_VALGRIND, set by the valgrind test setup).
 */

#include <signal.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <rte_pmd_mlx5.h>

#include "mlx5_test.h"
#include "mlx5_test_sim.h"

#define CARD 70
#define HOST_VHCA 1
#define DPU_VHCA 2
#define PAGE 4096
#define LEN (4 * PAGE)

static struct rte_device *host, *dpu;
static struct mlx5_common_device *host_cdev, *dpu_cdev;
static const uint8_t key[RTE_PMD_MLX5_ACCESS_KEY_LEN] = "a key of the memory suite......";

static int
mem_case_setup(void)
{
	if (sim_probe("mlx5_sim0", "card=70,vhca_id=1") != 0 ||
	    sim_probe("mlx5_sim1", "card=70,vhca_id=2") != 0)
		return TEST_FAILED;
	host = sim_eal_dev("mlx5_sim0");
	dpu = sim_eal_dev("mlx5_sim1");
	host_cdev = sim_cdev("mlx5_sim0");
	dpu_cdev = sim_cdev("mlx5_sim1");
	return TEST_SUCCESS;
}

static void
mem_case_teardown(void)
{
	sim_remove("mlx5_sim1");
	sim_remove("mlx5_sim0");
	mlx5_sim_pin_check_set(MLX5_SIM_PIN_CHECK_AUTO);
}

/* Fresh anonymous pages, filled, then given protection @prot. */
static uint8_t *
map_pages(size_t len, int prot)
{
	uint8_t *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	for (size_t i = 0; i < len; i++)
		p[i] = (uint8_t)(i * 7 + 1);
	if (mprotect(p, len, prot) != 0) {
		munmap(p, len);
		return NULL;
	}
	return p;
}

static int
dma(struct mlx5_common_device *cdev, rte_iova_t iova, const void *addr,
    void *buf, size_t len, bool write, uint8_t *syn)
{
	return mlx5_sim_dma(cdev->ctx, cdev->pdn,
			    rte_pmd_mlx5_iova_to_mkey(iova), (uintptr_t)addr,
			    buf, len, write, syn);
}

/* reg_mr pins as the kernel does: readable always, writable for write. */
static int
test_reg_mr_pin_rules(void)
{
	long live = sim_live(CARD, HOST_VHCA);
	const struct mlx5_glue *glue = host_cdev->glue;
	uint8_t *ro = map_pages(LEN, PROT_READ);
	uint8_t *none = map_pages(LEN, PROT_NONE);
	uint8_t *rw = map_pages(LEN, PROT_READ | PROT_WRITE);
	struct ibv_mr *mr;

	TEST_ASSERT(ro != NULL && none != NULL && rw != NULL, "");
	errno = 0;
	TEST_ASSERT(glue->reg_mr(host_cdev->pd, ro, LEN,
				 IBV_ACCESS_LOCAL_WRITE) == NULL,
		    "read-only pages for local write");
	TEST_ASSERT_EQUAL(errno, EFAULT, "");
	errno = 0;
	TEST_ASSERT(glue->reg_mr(host_cdev->pd, none, LEN, 0) == NULL,
		    "PROT_NONE pages, read access");
	TEST_ASSERT_EQUAL(errno, EFAULT, "");
	/* One read-only page inside a writable range is enough to refuse. */
	TEST_ASSERT_SUCCESS(mprotect(rw + PAGE, PAGE, PROT_READ), "");
	errno = 0;
	TEST_ASSERT(glue->reg_mr(host_cdev->pd, rw, LEN,
				 IBV_ACCESS_LOCAL_WRITE) == NULL,
		    "a read-only page in the middle");
	TEST_ASSERT_EQUAL(errno, EFAULT, "");
	TEST_ASSERT_EQUAL(sim_live(CARD, HOST_VHCA), live, "refusals left nothing");
	/* Read-only access to read-only pages is what the kernel allows. */
	mr = glue->reg_mr(host_cdev->pd, ro, LEN, 0);
	TEST_ASSERT_NOT_NULL(mr, "read access to read-only pages");
	TEST_ASSERT_SUCCESS(glue->dereg_mr(mr), "");
	mr = glue->reg_mr(host_cdev->pd, rw, LEN, 0);
	TEST_ASSERT_NOT_NULL(mr, "read access over a read-only page");
	TEST_ASSERT_SUCCESS(glue->dereg_mr(mr), "");
	TEST_ASSERT_SUCCESS(mprotect(rw + PAGE, PAGE, PROT_READ | PROT_WRITE), "");
	mr = glue->reg_mr(host_cdev->pd, rw + 100, LEN - 200,
			  IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE);
	TEST_ASSERT_NOT_NULL(mr, "writable pages, unaligned range");
	TEST_ASSERT_SUCCESS(glue->dereg_mr(mr), "");
	munmap(ro, LEN);
	munmap(none, LEN);
	munmap(rw, LEN);
	TEST_ASSERT_EQUAL(sim_live(CARD, HOST_VHCA), live, "");
	return TEST_SUCCESS;
}

/* A DEVX umem pins the same way. */
static int
test_umem_pin_rules(void)
{
	long live = sim_live(CARD, HOST_VHCA);
	const struct mlx5_glue *glue = host_cdev->glue;
	uint8_t *ro = map_pages(LEN, PROT_READ);
	uint8_t *none = map_pages(LEN, PROT_NONE);
	struct mlx5dv_devx_umem *umem;

	TEST_ASSERT(ro != NULL && none != NULL, "");
	errno = 0;
	TEST_ASSERT(glue->devx_umem_reg(host_cdev->ctx, ro, LEN,
					IBV_ACCESS_LOCAL_WRITE) == NULL,
		    "read-only pages for local write");
	TEST_ASSERT_EQUAL(errno, EFAULT, "");
	errno = 0;
	TEST_ASSERT(glue->devx_umem_reg(host_cdev->ctx, none, LEN, 0) == NULL,
		    "PROT_NONE pages");
	TEST_ASSERT_EQUAL(errno, EFAULT, "");
	umem = glue->devx_umem_reg(host_cdev->ctx, ro, LEN, 0);
	TEST_ASSERT_NOT_NULL(umem, "read-only umem of read-only pages");
	TEST_ASSERT_SUCCESS(glue->devx_umem_dereg(umem), "");
	munmap(ro, LEN);
	munmap(none, LEN);
	TEST_ASSERT_EQUAL(sim_live(CARD, HOST_VHCA), live, "");
	return TEST_SUCCESS;
}

/* The public API registers for write: read-only memory is refused. */
static int
test_api_refuses_readonly(void)
{
	long live = sim_live(CARD, HOST_VHCA);
	uint8_t *ro = map_pages(LEN, PROT_READ);
	uint8_t *none = map_pages(LEN, PROT_NONE);
	uint16_t vhca;
	uint32_t mkey;

	TEST_ASSERT(ro != NULL && none != NULL, "");
	TEST_ASSERT_EQUAL(rte_pmd_mlx5_export_mem(host, ro, LEN, key, &vhca,
						  &mkey), -EFAULT,
			  "export of read-only memory");
	TEST_ASSERT_EQUAL(rte_errno, EFAULT, "");
	TEST_ASSERT_EQUAL(rte_pmd_mlx5_export_mem(host, none, LEN, key, &vhca,
						  &mkey), -EFAULT,
			  "export of PROT_NONE memory");
	rte_errno = 0;
	TEST_ASSERT(rte_pmd_mlx5_get_buf_private_iova(host, ro, LEN) == 0,
		    "private registration of read-only memory");
	TEST_ASSERT_EQUAL(rte_errno, EFAULT, "");
	rte_errno = 0;
	TEST_ASSERT(rte_pmd_mlx5_get_buf_private_iova(host, none + 10, 100) == 0,
		    "private registration of PROT_NONE memory");
	TEST_ASSERT_EQUAL(rte_errno, EFAULT, "");
	TEST_ASSERT_EQUAL(sim_live(CARD, HOST_VHCA), live, "nothing left");
	munmap(ro, LEN);
	munmap(none, LEN);
	return TEST_SUCCESS;
}

/* The application unmaps registered memory: accesses fail, nothing dies. */
static int
test_unmapped_after_registration(void)
{
	uint8_t *mem = map_pages(LEN, PROT_READ | PROT_WRITE);
	uint8_t buf[64], syn = 0;
	rte_iova_t iova;

	if (mlx5_test_under_valgrind())
		TEST_SKIP("memcheck flags the device's access to unmapped memory before the fault guard runs");
	TEST_ASSERT(mem != NULL, "");
	iova = rte_pmd_mlx5_get_buf_private_iova(host, mem, LEN);
	TEST_ASSERT(iova != 0, "");
	TEST_ASSERT_SUCCESS(dma(host_cdev, iova, mem + 8, buf, sizeof(buf),
				false, &syn), "mapped: the access works");
	TEST_ASSERT(memcmp(buf, mem + 8, sizeof(buf)) == 0, "");
	TEST_ASSERT_SUCCESS(munmap(mem + PAGE, 2 * PAGE), "");
	TEST_ASSERT_EQUAL(dma(host_cdev, iova, mem + PAGE + 8, buf,
			      sizeof(buf), false, &syn), -EFAULT,
			  "read of an unmapped page");
	TEST_ASSERT_EQUAL(syn, MLX5_CQE_SYNDROME_LOCAL_PROT_ERR,
			  "a local protection error CQE");
	TEST_ASSERT_EQUAL(errno, EFAULT, "the device's test interface sets errno");
	syn = 0;
	TEST_ASSERT_EQUAL(dma(host_cdev, iova, mem + 2 * PAGE, buf,
			      sizeof(buf), true, &syn), -EFAULT,
			  "write to an unmapped page");
	TEST_ASSERT_EQUAL(syn, MLX5_CQE_SYNDROME_LOCAL_PROT_ERR, "");
	/* Across the boundary: the mapped part may be read, the access fails. */
	TEST_ASSERT_EQUAL(dma(host_cdev, iova, mem + PAGE - 16, buf,
			      sizeof(buf), false, &syn), -EFAULT, "");
	/* The pages still mapped work as before. */
	TEST_ASSERT_SUCCESS(dma(host_cdev, iova, mem + 3 * PAGE, buf,
				sizeof(buf), true, &syn), "");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5_release_key(host, iova), "");
	munmap(mem, PAGE);
	munmap(mem + 3 * PAGE, PAGE);
	return TEST_SUCCESS;
}

/* The application write-protects registered memory: writes fail. */
static int
test_protected_after_registration(void)
{
	uint8_t *mem = map_pages(LEN, PROT_READ | PROT_WRITE);
	uint8_t buf[32], syn = 0;
	rte_iova_t iova;

	if (mlx5_test_under_valgrind())
		TEST_SKIP("memcheck flags the device's access to protected memory before the fault guard runs");
	TEST_ASSERT(mem != NULL, "");
	iova = rte_pmd_mlx5_get_buf_private_iova(host, mem, LEN);
	TEST_ASSERT(iova != 0, "");
	TEST_ASSERT_SUCCESS(mprotect(mem, LEN, PROT_READ), "");
	memset(buf, 0xab, sizeof(buf));
	TEST_ASSERT_EQUAL(dma(host_cdev, iova, mem, buf, sizeof(buf), true,
			      &syn), -EFAULT, "write to read-only pages");
	TEST_ASSERT_EQUAL(syn, MLX5_CQE_SYNDROME_LOCAL_PROT_ERR, "");
	TEST_ASSERT_SUCCESS(dma(host_cdev, iova, mem, buf, sizeof(buf), false,
				&syn), "reading them still works");
	TEST_ASSERT_SUCCESS(mprotect(mem, LEN, PROT_NONE), "");
	TEST_ASSERT_EQUAL(dma(host_cdev, iova, mem, buf, sizeof(buf), false,
			      &syn), -EFAULT, "read of PROT_NONE pages");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5_release_key(host, iova), "");
	munmap(mem, LEN);
	return TEST_SUCCESS;
}

/* The owner unmaps exported memory: the importer's accesses fail cleanly. */
static int
test_unmapped_under_crossing_key(void)
{
	long dpu_live = sim_live(CARD, DPU_VHCA);
	uint8_t *mem = map_pages(LEN, PROT_READ | PROT_WRITE);
	uint8_t buf[16], syn = 0;
	rte_iova_t cross, alias;
	uint16_t vhca;
	uint32_t mkey;

	if (mlx5_test_under_valgrind())
		TEST_SKIP("memcheck flags the device's access to unmapped memory before the fault guard runs");
	TEST_ASSERT(mem != NULL, "");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5_export_mem(host, mem, LEN, key, &vhca,
						    &mkey), "");
	cross = rte_pmd_mlx5_create_cross_vhca_mkey(dpu, vhca, mkey);
	alias = rte_pmd_mlx5_import_mem(dpu, vhca, mkey, key);
	TEST_ASSERT(cross != 0 && alias != 0, "");
	TEST_ASSERT_SUCCESS(munmap(mem, LEN), "");
	TEST_ASSERT_EQUAL(dma(dpu_cdev, cross, mem, buf, sizeof(buf), false,
			      &syn), -EFAULT, "crossing read");
	TEST_ASSERT_EQUAL(syn, MLX5_CQE_SYNDROME_LOCAL_PROT_ERR, "");
	TEST_ASSERT_EQUAL(dma(dpu_cdev, alias, mem, buf, sizeof(buf), true,
			      &syn), -EFAULT, "alias write");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5_release_key(dpu, cross), "");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5_release_key(dpu, alias), "");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5_release_key(host, mkey), "");
	TEST_ASSERT_EQUAL(sim_live(CARD, DPU_VHCA), dpu_live, "");
	return TEST_SUCCESS;
}

/*
 * The guard catches device accesses only: a fault of the application's own
 * code still ends the process (a child here), whatever handler was before.
 */
static int
test_other_faults_still_kill(void)
{
	uint8_t *mem = map_pages(PAGE, PROT_READ | PROT_WRITE);
	uint8_t buf[8], syn;
	rte_iova_t iova;
	int status;
	pid_t pid;

	if (mlx5_test_under_valgrind())
		TEST_SKIP("memcheck would report the child's deliberate fault");
	TEST_ASSERT(mem != NULL, "");
	/* A device access first, so that the guard is installed. */
	iova = rte_pmd_mlx5_get_buf_private_iova(host, mem, PAGE);
	TEST_ASSERT(iova != 0, "");
	TEST_ASSERT_SUCCESS(dma(host_cdev, iova, mem, buf, sizeof(buf), false,
				&syn), "");
	TEST_ASSERT_SUCCESS(rte_pmd_mlx5_release_key(host, iova), "");
	TEST_ASSERT_SUCCESS(munmap(mem, PAGE), "");
	fflush(NULL);
	pid = fork();
	TEST_ASSERT(pid >= 0, "fork");
	if (pid == 0) {
		*(volatile uint8_t *)mem = 1; /* The application's own fault. */
		_exit(0);                     /* Reached only if swallowed. */
	}
	TEST_ASSERT_EQUAL(waitpid(pid, &status, 0), pid, "");
	TEST_ASSERT(!(WIFEXITED(status) && WEXITSTATUS(status) == 0),
		    "the child's fault was not swallowed");
	if (WIFSIGNALED(status))
		printf("    child died of signal %d\n", WTERMSIG(status));
	else
		printf("    child exited with %d (a sanitizer's report)\n",
		       WEXITSTATUS(status));
	return TEST_SUCCESS;
}

/* The same rules through the path of kernels without MADV_POPULATE_*. */
static int
test_pin_rules_by_maps(void)
{
	mlx5_sim_pin_check_set(MLX5_SIM_PIN_CHECK_MAPS);
	if (test_reg_mr_pin_rules() != TEST_SUCCESS ||
	    test_umem_pin_rules() != TEST_SUCCESS ||
	    test_api_refuses_readonly() != TEST_SUCCESS)
		return TEST_FAILED;
	return TEST_SUCCESS;
}

static const struct mlx5_test_case mem_cases[] = {
	{ "reg_mr_pin_rules", test_reg_mr_pin_rules },
	{ "umem_pin_rules", test_umem_pin_rules },
	{ "api_refuses_readonly", test_api_refuses_readonly },
	{ "pin_rules_by_maps", test_pin_rules_by_maps },
	{ "unmapped_after_registration", test_unmapped_after_registration },
	{ "protected_after_registration", test_protected_after_registration },
	{ "unmapped_under_crossing_key", test_unmapped_under_crossing_key },
	{ "other_faults_still_kill", test_other_faults_still_kill },
	{ NULL, NULL },
};

static const struct mlx5_test_suite mem_suite = {
	.name = "sim_mem",
	.case_setup = mem_case_setup,
	.case_teardown = mem_case_teardown,
	.cases = mem_cases,
};

MLX5_TEST_MAIN(mem_suite)
