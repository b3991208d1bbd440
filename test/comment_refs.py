#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Comments that name a function name one that exists.

Every ``name()`` in a comment of the project's C sources (drivers/, app/,
examples/, test/) must be a function or macro of the tree's code, of the
installed DPDK or rdma-core headers, or one of the other projects'
functions listed below (the kernel's, rdma-core's internals, DPDK's own
driver code), each cited on purpose. A renamed or removed function leaves
no comment naming it. The test `comment_refs`.

Usage: test/comment_refs.py [--build-dir DIR] [--help]
(--build-dir is taken for the convention's sake: only sources are read.)
"""

import argparse
import os
import re
import subprocess
import sys

# Functions of other projects the comments cite: where each is.
EXTERNAL = {
    # Linux: drivers/infiniband/hw/mlx5, drivers/net/ethernet/mellanox/mlx5
    "cmd_status_to_err": "kernel mlx5_core cmd.c",
    "devx_handle_mkey_create": "kernel mlx5_ib devx.c",
    "devx_is_general_cmd": "kernel mlx5_ib devx.c",
    "devx_set_umem_valid": "kernel mlx5_ib devx.c",
    "devx_get_obj_id": "kernel mlx5_ib devx.c",
    "devx_is_valid_obj_id": "kernel mlx5_ib devx.c",
    "devx_umem_get": "kernel mlx5_ib devx.c",
    "mlx5_ib_devx_is_flow_dest": "kernel mlx5_ib devx.c",
    "mlx5_rl_add_rate_raw": "kernel mlx5_core rl.c",
    "arm_rmp_cmd": "kernel mlx5_ib srq_cmd.c",
    "get_tx_affinity": "kernel mlx5_ib qp.c",
    "ib_umem_get": "kernel ib_core umem.c",
    "ib_access_writable": "kernel include/rdma/ib_umem.h",
    "ib_check_mr_access": "kernel include/rdma/ib_verbs.h",
    "ib_modify_qp_is_ok": "kernel ib_core verbs.c",
    "create_raw_packet_qp_sq": "kernel mlx5_ib qp.c",
    # rdma-core: providers/mlx5
    "mlx5_alloc_cq_buf": "rdma-core providers/mlx5/cq.c",
    # glibc
    "__tls_get_addr": "glibc's TLS access",
    # DPDK 22.11's own mlx5 driver
    "mlx5_common_dev_dma_map": "DPDK drivers/common/mlx5/mlx5_common.c",
    "mlx5_rxq_new": "DPDK drivers/net/mlx5/mlx5_rxq.c",
    "rxq_alloc_elts_sprq": "DPDK drivers/net/mlx5/mlx5_rxq.c",
    "mlx5_rxq_devx_obj_new": "DPDK drivers/net/mlx5/mlx5_devx.c",
    "mlx5_txq_devx_obj_new": "DPDK drivers/net/mlx5/mlx5_devx.c",
    "mlx5_txq_new": "DPDK drivers/net/mlx5/mlx5_txq.c",
    "txq_set_params": "DPDK drivers/net/mlx5/mlx5_txq.c",
    "txq_free_elts": "DPDK drivers/net/mlx5/mlx5_txq.c",
}

COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)
IDENT = re.compile(r"\b[A-Za-z_]\w*\b")


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap = argparse.ArgumentParser(description="Comments name functions "
                                 "that exist.")
    ap.add_argument("--build-dir", default="build", help="(not used)")
    ap.parse_args()
    files = subprocess.run(["git", "-C", root, "ls-files", "drivers", "app",
                            "examples", "test"], capture_output=True,
                           text=True, check=True).stdout.split()
    files = [f for f in files if f.endswith((".c", ".h"))]
    known = set(EXTERNAL)
    comments = []
    for f in files:
        with open(os.path.join(root, f), errors="replace") as fh:
            s = fh.read()
        for m in COMMENT.finditer(s):
            comments.append((f, s.count("\n", 0, m.start()) + 1, m.group()))
        known.update(IDENT.findall(COMMENT.sub(" ", s)))
    for d in ("/usr/include/dpdk", "/usr/include/infiniband",
              "/usr/include/x86_64-linux-gnu/dpdk",
              "/usr/include/aarch64-linux-gnu/dpdk"):
        for dp, _, fs in os.walk(d):
            for x in fs:
                with open(os.path.join(dp, x), errors="replace") as fh:
                    known.update(IDENT.findall(fh.read()))
    bad = 0
    n = 0
    for f, line, c in comments:
        for m in re.finditer(r"\b([A-Za-z_]\w*)\(\)", c):
            n += 1
            if m.group(1) not in known:
                print("%s:%d: the comment names %s(), which is nowhere"
                      % (f, line + c.count("\n", 0, m.start()), m.group(1)))
                bad += 1
    print("comment_refs: %d references in %d files, %d to nothing"
          % (n, len(files), bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
