/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * Fuzz target: devargs of the common layer and of the software device.
 *
 * The input is a devargs string (cut at its first NUL) given to a real
 * probe of vdev mlx5_sim7, the way EAL's --vdev would: rte_kvargs, the
 * common keys (class, cmd_fd, pd_handle, mr_*, sys_mem_en), the sim's keys
 * (card, vhca_id, capabilities, fault injection), the unknown-key check, and
 * whatever the probe does with the result. A probe that succeeds is removed
 * at once. Afterwards every vHCA the string can have named must be empty:
 * a probe, failed or not, followed by its removal leaves nothing alive.
 *
 * cmd_fd/pd_handle import a context and PD the application owns. When the
 * input mentions cmd_fd, a base device is probed first (card 250, vHCA 1,
 * PD handle 1) and a duplicate of its command fd is put at fd 900, as an
 * application would hand it over: "cmd_fd=900,pd_handle=1,card=250,
 * vhca_id=1" imports it.
 */

#include <errno.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <rte_bus_vdev.h>
#include <rte_common.h>
#include <rte_kvargs.h>

#include "fuzz_common.h"
#include "mlx5_test_sim.h"

#define FUZZ_DEV "mlx5_sim7"
#define FUZZ_DEV_VHCA 7 /* vhca_id default: N of mlx5_sim<N>. */
#define BASE_DEV "mlx5_sim8"
#define BASE_ARGS "card=250,vhca_id=1"
#define BASE_CARD 250
#define BASE_VHCA 1
#define IMPORT_FD 900
/* Longer strings only repeat keys: rte_kvargs takes 32 pairs at most. */
#define MAX_ARGS_LEN 1024
#define MAX_CAND (RTE_KVARGS_MAX + 2)

static const char *const seeds[] = {
	"",
	"card=1,vhca_id=7",
	"card=2,vhca_id=5,crossing=0,pp_table_size=16,pp_min_rate=500,pp_max_rate=2000,class=eth:crypto,sys_mem_en=1,mr_ext_memseg_en=0,mr_mempool_reg_en=0",
	"card=2,vhca_id=6,hca_cap_2=0,pacing=0",
	"card=3,vhca_id=0x10,update_tag=0,crypto=0,odp=0,mr_whole_mem_en=1",
	"class=net:vdpa:regex:compress:crypto",
	"class=eth,class=crypto",
	"card=10,foo=1",
	"card=10,class=bogus",
	"card=10,class=",
	"card=10,class",
	"card=10,mr_ext_memseg_en=2",
	"card=10,sys_mem_en=yes",
	"card=256",
	"card=10,vhca_id=65536",
	"card=10,pp_table_size=1",
	"card=10,pp_min_rate=10,pp_max_rate=5",
	"card=10,pp_min_rate=0x0,pp_max_rate=4294967295",
	"card=4,fail_cmd=CREATE_UCTX",
	"card=4,fail_cmd=ALLOC_PD,fail_status=NO_RESOURCES",
	"card=4,fail_cmd=0x100,fail_nth=2,fail_status=0x5",
	"card=4,fail_nth=3",
	"card=4,fail_cmd=mlx5_cmd_op_dealloc_pd",
	"card=4,fail_cmd=DESTROY_UCTX,fail_status=int_err",
	"card=4,fail_status=BAD_PARAM",
	"card=250,vhca_id=1,cmd_fd=900,pd_handle=1",
	"card=250,vhca_id=1,cmd_fd=900,pd_handle=2",
	"card=250,vhca_id=2,cmd_fd=900,pd_handle=1",
	"cmd_fd=900",
	"pd_handle=1",
	"card=250,vhca_id=1,cmd_fd=x,pd_handle=1",
	"card=6,cross_rule=grant,alias_status=3,pp_uid=0,signature=0",
	"card=6,vhca_id=1,cross_rule=mark,pp_table_size=0",
	"card=6,vhca_id=2,cross_rule=both,alias_status=8",
	"card=6,vhca_id=3,cross_rule=bogus",
};

/* The sim's integer rule: decimal or 0x, no sign or space, in range. */
static bool
parse_uint(const char *value, unsigned long long max, unsigned long long *v)
{
	char *end = NULL;

	if (value == NULL || *value == '\0' || *value == '-' ||
	    *value == '+' || *value == ' ')
		return false;
	errno = 0;
	*v = strtoull(value, &end, 0);
	return errno == 0 && *end == '\0' && *v <= max;
}

static void
cand_add(unsigned int *list, unsigned int *n, unsigned int v)
{
	for (unsigned int i = 0; i < *n; i++)
		if (list[i] == v)
			return;
	if (*n < MAX_CAND)
		list[(*n)++] = v;
}

/*
 * Every (card, vHCA) the probe may have touched: the defaults and each
 * well-formed card/vhca_id value of the string (a repeated key is handled
 * once per occurrence, the last wins; a malformed one fails the probe
 * before any vHCA is named).
 */
static void
candidates(const char *args, unsigned int *cards, unsigned int *nc,
	   unsigned int *vhcas, unsigned int *nv)
{
	struct rte_kvargs *kv = rte_kvargs_parse(args, NULL);

	*nc = *nv = 0;
	cand_add(cards, nc, 0);
	cand_add(vhcas, nv, FUZZ_DEV_VHCA);
	if (kv == NULL)
		return;
	for (unsigned int i = 0; i < kv->count; i++) {
		unsigned long long v;

		if (strcmp(kv->pairs[i].key, "card") == 0 &&
		    parse_uint(kv->pairs[i].value, MLX5_SIM_MAX_CARD, &v))
			cand_add(cards, nc, (unsigned int)v);
		else if (strcmp(kv->pairs[i].key, "vhca_id") == 0 &&
			 parse_uint(kv->pairs[i].value, MLX5_SIM_MAX_VHCA_ID,
				    &v))
			cand_add(vhcas, nv, (unsigned int)v);
	}
	rte_kvargs_free(kv);
}

static long
reclaimed_sum(const unsigned int *cards, unsigned int nc,
	      const unsigned int *vhcas, unsigned int nv)
{
	long sum = 0;

	for (unsigned int c = 0; c < nc; c++)
		for (unsigned int v = 0; v < nv; v++)
			sum += RTE_MAX(sim_reclaimed(cards[c], vhcas[v]), 0L);
	return sum + RTE_MAX(sim_reclaimed(BASE_CARD, BASE_VHCA), 0L);
}

/* The base device whose context and PD the input may import. */
static void
base_probe(void)
{
	struct mlx5_common_device *cdev;

	FUZZ_CHECK(sim_probe(BASE_DEV, BASE_ARGS) == 0, "base device");
	cdev = sim_cdev(BASE_DEV);
	FUZZ_CHECK(cdev != NULL && cdev->pd->handle == 1, "base PD handle");
	FUZZ_CHECK(dup2(cdev->ctx->cmd_fd, IMPORT_FD) == IMPORT_FD,
		   "dup2: %s", strerror(errno));
}

static void
base_remove(void)
{
	FUZZ_CHECK(sim_remove(BASE_DEV) == 0, "base device remove");
	/* Already closed if the input imported it and the remove closed it. */
	close(IMPORT_FD);
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *dir = getenv(FUZZ_SEED_ENV);

	RTE_SET_USED(argc);
	RTE_SET_USED(argv);
	if (dir != NULL) {
		for (size_t i = 0; i < RTE_DIM(seeds); i++) {
			char name[32];

			snprintf(name, sizeof(name), "seed-%02zu", i);
			fuzz_seed_write(dir, name, seeds[i], strlen(seeds[i]));
		}
		exit(0);
	}
	fuzz_eal_init("fuzz_devargs");
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned int cards[MAX_CAND], vhcas[MAX_CAND], nc, nv;
	bool import = false, faults;
	uint16_t card = 0, vhca_id = 0;
	long reclaimed;
	char *args;
	int ret;

	if (size > MAX_ARGS_LEN)
		return -1; /* Not added to the corpus. */
	args = malloc(size + 1);
	FUZZ_CHECK(args != NULL, "");
	memcpy(args, data, size);
	args[size] = '\0';
	candidates(args, cards, &nc, vhcas, &nv);
	/* Injected faults may make remove's commands fail: then reclaim. */
	faults = strcasestr(args, "fail_") != NULL;
	reclaimed = reclaimed_sum(cards, nc, vhcas, nv);
	if (strstr(args, "cmd_fd") != NULL) {
		base_probe();
		import = true;
	}
	ret = sim_probe(FUZZ_DEV, args);
	if (ret == 0) {
		struct mlx5_common_device *cdev = sim_cdev(FUZZ_DEV);

		FUZZ_CHECK(cdev != NULL && cdev->ctx != NULL && cdev->pd != NULL,
			   "probed \"%s\" without context or PD", args);
		FUZZ_CHECK(mlx5_sim_vhca_id_of_ctx(cdev->ctx, &card,
						   &vhca_id) == 0, "");
		FUZZ_CHECK(cdev->caps.vhca_id == vhca_id,
			   "QUERY_HCA_CAP says vHCA %u, the context is of %u",
			   cdev->caps.vhca_id, vhca_id);
		FUZZ_CHECK(sim_remove(FUZZ_DEV) == 0, "remove after \"%s\"",
			   args);
	}
	FUZZ_CHECK(sim_eal_dev(FUZZ_DEV) == NULL && sim_cdev(FUZZ_DEV) == NULL,
		   "\"%s\" (probe %d) left a device behind", args, ret);
	if (import)
		base_remove();
	if (ret == 0) {
		unsigned int c = 0, v = 0;

		while (c < nc && cards[c] != card)
			c++;
		while (v < nv && vhcas[v] != vhca_id)
			v++;
		FUZZ_CHECK(c < nc && v < nv,
			   "\"%s\" probed card %u vHCA %u, not a value it names",
			   args, card, vhca_id);
	}
	for (unsigned int c = 0; c < nc; c++) {
		for (unsigned int v = 0; v < nv; v++) {
			FUZZ_CHECK(sim_live(cards[c], vhcas[v]) <= 0,
				   "\"%s\" (probe %d) left %ld objects on card %u vHCA %u",
				   args, ret, sim_live(cards[c], vhcas[v]),
				   cards[c], vhcas[v]);
			/* A probe replaces the fault setting; the next may not. */
			mlx5_sim_fault_clear(cards[c], vhcas[v]);
		}
	}
	FUZZ_CHECK(sim_live(BASE_CARD, BASE_VHCA) <= 0,
		   "\"%s\" left %ld objects on the base vHCA", args,
		   sim_live(BASE_CARD, BASE_VHCA));
	mlx5_sim_fault_clear(BASE_CARD, BASE_VHCA);
	FUZZ_CHECK(faults || reclaimed_sum(cards, nc, vhcas, nv) == reclaimed,
		   "\"%s\": remove leaked objects the sim had to reclaim",
		   args);
	free(args);
	return 0;
}
