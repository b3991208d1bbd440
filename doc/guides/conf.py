# SPDX-License-Identifier: BSD-3-Clause
# Sphinx configuration of the guides (sphinx-build doc/guides <out>).
project = 'dpdk-mlx5-common'
master_doc = 'index'
