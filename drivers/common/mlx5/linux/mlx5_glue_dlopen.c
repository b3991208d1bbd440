/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * -Dibverbs_link=dlopen: the rdma-core glue table lives in its own module,
 * MLX5_GLUE_FILE_NAME (mlx5_glue_ibv.c linked to libibverbs and libmlx5),
 * loaded on first use. The common library then has no dependency on
 * rdma-core: where rdma-core is not installed it still loads, the software
 * device works, and only the rdma-core backend is unavailable.
 *
 * The module is looked up, first usable file wins, in:
 *   1. the directory named by the environment variable MLX5_GLUE_PATH
 *      (ignored in set-user-ID/set-group-ID programs, see secure_getenv(3));
 *   2. the directory this library was loaded from (dladdr(3)): the build's
 *      drivers/ folder, or the installed drivers folder;
 *   3. MLX5_GLUE_INSTALL_DIR, where meson installs the module.
 * A file is usable when it loads (with all its rdma-core symbols resolved)
 * and exports MLX5_GLUE_VERSION_SYMBOL equal to MLX5_GLUE_VERSION, the
 * project version and a hash of mlx5_glue.h: a glue built from another
 * version of the contract would be a table of another layout.
 *
 * The module is never unloaded: tables and devices may point into it until
 * the process exits.
 */

#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mlx5_common_log.h"
#include "mlx5_os_glue.h"

#ifndef MLX5_GLUE_FILE_NAME
#error "MLX5_GLUE_FILE_NAME must be defined by drivers/common/mlx5/linux/meson.build"
#endif
#ifndef MLX5_GLUE_INSTALL_DIR
#error "MLX5_GLUE_INSTALL_DIR must be defined by drivers/common/mlx5/linux/meson.build"
#endif

/* Environment variable naming a directory to search first. */
#define MLX5_GLUE_PATH_ENV "MLX5_GLUE_PATH"

/* Candidate directories: environment, own directory, install directory. */
#define MLX5_GLUE_DIRS_MAX 3

static pthread_once_t mlx5_glue_once = PTHREAD_ONCE_INIT;

/* The loaded table, or NULL when the backend is unavailable. */
static const struct mlx5_glue *mlx5_glue_loaded;

/**
 * Find the directory this library was loaded from.
 *
 * @param[out] dir
 *   Buffer for the directory name.
 * @param size
 *   Size of @p dir.
 *
 * @return
 *   0 on success, a negative errno value otherwise (-ENOENT when the
 *   loader does not know the library's path, -ENAMETOOLONG when it does not
 *   fit in @p dir).
 */
static int
mlx5_glue_own_dir(char *dir, size_t size)
{
	Dl_info info;
	const char *slash;
	size_t len;

	/* Any object of this library will do; a variable avoids casting a
	 * function pointer to void *. */
	if (dladdr(&mlx5_glue_once, &info) == 0 || info.dli_fname == NULL)
		return -ENOENT;
	slash = strrchr(info.dli_fname, '/');
	if (slash == NULL)
		return -ENOENT;
	len = (size_t)(slash - info.dli_fname);
	if (len == 0)
		len = 1; /* Library in "/": keep the root. */
	if (len >= size)
		return -ENAMETOOLONG;
	memcpy(dir, info.dli_fname, len);
	dir[len] = '\0';
	return 0;
}

/**
 * Try to load the glue module from one directory.
 *
 * - No such file: logged at DEBUG level only.
 * - The file exists but does not load (typically: libibverbs.so.1 or
 *   libmlx5.so.1 missing, rdma-core not installed): logged at DEBUG level,
 *   reason kept.
 * - The file loads but is not a glue of this build (symbols missing, other
 *   version): unloaded again, logged at WARNING level since a file of that
 *   exact name is expected to be ours, reason kept.
 * A reason is kept in @p error only if none is there yet, so that the
 * summary names the first directory's problem.
 *
 * @param dir
 *   Directory to look in.
 * @param[in,out] error
 *   Reason of the first failure of an existing file; "" if none yet.
 * @param error_size
 *   Size of @p error.
 *
 * @return
 *   The module's table on success, NULL otherwise.
 */
static const struct mlx5_glue *
mlx5_glue_try_dir(const char *dir, char *error, size_t error_size)
{
	/* Room for a path and the text around it: no truncation. */
	char reason[2 * PATH_MAX];
	const struct mlx5_glue *glue;
	const char *version;
	char path[PATH_MAX];
	const char *dl_error;
	void *handle;
	int len;

	len = snprintf(path, sizeof(path), "%s/%s", dir, MLX5_GLUE_FILE_NAME);
	if (len < 0 || (size_t)len >= sizeof(path)) {
		DRV_LOG(DEBUG, "rdma-core glue: path too long in %s", dir);
		return NULL;
	}
	if (access(path, F_OK) != 0) {
		DRV_LOG(DEBUG, "rdma-core glue: no %s", path);
		return NULL;
	}
	handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (handle == NULL) {
		dl_error = dlerror();
		snprintf(reason, sizeof(reason), "cannot load %s: %s", path,
			 dl_error != NULL ? dl_error : "unknown error");
		DRV_LOG(DEBUG, "rdma-core glue: %s", reason);
		if (error[0] == '\0')
			snprintf(error, error_size, "%s", reason);
		return NULL;
	}
	version = dlsym(handle, MLX5_GLUE_VERSION_SYMBOL);
	glue = dlsym(handle, MLX5_GLUE_SYMBOL);
	if (version == NULL || glue == NULL) {
		snprintf(reason, sizeof(reason), "%s does not export %s and %s",
			 path, MLX5_GLUE_VERSION_SYMBOL, MLX5_GLUE_SYMBOL);
	} else if (strncmp(version, MLX5_GLUE_VERSION,
			   sizeof(MLX5_GLUE_VERSION)) != 0) {
		/* Bounded compare: the terminating NUL is part of the match;
		 * the table is not read before the version matched. */
		snprintf(reason, sizeof(reason),
			 "%s is of another build (version \"%.64s\", expected \"%s\")",
			 path, version, MLX5_GLUE_VERSION);
	} else if (glue->name == NULL) {
		snprintf(reason, sizeof(reason), "%s exports an unnamed table",
			 path);
	} else {
		DRV_LOG(DEBUG, "rdma-core glue: loaded %s (version %s)",
			path, MLX5_GLUE_VERSION);
		return glue;
	}
	DRV_LOG(WARNING, "rdma-core glue: %s, ignored", reason);
	if (error[0] == '\0')
		snprintf(error, error_size, "%s", reason);
	dlclose(handle);
	return NULL;
}

/**
 * Load the glue module: the once-only routine behind mlx5_os_glue().
 *
 * Tries the candidate directories in order (skipping repeats) and sets
 * mlx5_glue_loaded to the first usable table. When none is usable, logs
 * once at INFO level that the rdma-core backend is unavailable and why.
 */
static void
mlx5_glue_load(void)
{
	const char *dirs[MLX5_GLUE_DIRS_MAX];
	char error[2 * PATH_MAX] = "";
	char own_dir[PATH_MAX];
	const char *env;
	unsigned int n = 0;
	unsigned int i;
	unsigned int j;
	bool seen;

	env = secure_getenv(MLX5_GLUE_PATH_ENV);
	if (env != NULL && env[0] != '\0')
		dirs[n++] = env;
	if (mlx5_glue_own_dir(own_dir, sizeof(own_dir)) == 0)
		dirs[n++] = own_dir;
	dirs[n++] = MLX5_GLUE_INSTALL_DIR;
	for (i = 0; i < n; i++) {
		seen = false;
		for (j = 0; j < i; j++)
			seen = seen || strcmp(dirs[i], dirs[j]) == 0;
		if (seen)
			continue;
		mlx5_glue_loaded = mlx5_glue_try_dir(dirs[i], error,
						     sizeof(error));
		if (mlx5_glue_loaded != NULL)
			return;
	}
	if (error[0] == '\0')
		snprintf(error, sizeof(error), "no %s in $%s, next to this"
			 " library or in %s", MLX5_GLUE_FILE_NAME,
			 MLX5_GLUE_PATH_ENV, MLX5_GLUE_INSTALL_DIR);
	DRV_LOG(INFO, "rdma-core backend unavailable, mlx5 PCI and auxiliary"
		" devices are left to other drivers: %s", error);
}

/**
 * Get the rdma-core operations table, loading the glue module on the first
 * call.
 *
 * @return
 *   The table, or NULL when the rdma-core backend is unavailable (the
 *   reason was logged once).
 */
const struct mlx5_glue *
mlx5_os_glue(void)
{
	pthread_once(&mlx5_glue_once, mlx5_glue_load);
	return mlx5_glue_loaded;
}
