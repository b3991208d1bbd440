/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The dpdk-mlx5-common authors
 */

/*
 * The software mlx5 device ("sim" backend): the interface that tests and the
 * datapath engine use next to the backend operations table (mlx5_glue.h).
 * In this project's build the model is a library of its own
 * (libmlx5_sim_model: plain C, pthreads, OpenSSL; nothing of EAL), which
 * exports these functions; the vdev adapter (librte_common_mlx5_sim) is
 * its DPDK front.
 *
 * The device is a model of mlx5 hardware at the PRM level. A process holds
 * cards 0..255; a card holds vHCAs (vhca_id 0..65535), each created the first
 * time a probe names it and alive until the process ends. Every operation that
 * issues a firmware command on hardware is modelled as that command: counted,
 * subject to fault injection, and refused with a PRM status and one of the
 * syndromes below when it breaks a rule.
 */

#ifndef MLX5_SIM_H_
#define MLX5_SIM_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <infiniband/verbs.h>

/* Driver and device names: vdev mlx5_sim<N>, ibv device mlx5_sim_c<card>_v<vhca>. */
#define MLX5_SIM_DRIVER_NAME "mlx5_sim"

/* Highest card number and vHCA id. */
#define MLX5_SIM_MAX_CARD 255
#define MLX5_SIM_MAX_VHCA_ID 65535

/*
 * Opcodes the sim models that the shared PRM header does not define: the
 * kernel issues them on behalf of rdma-core (context open/close).
 */
#define MLX5_SIM_CMD_OP_CREATE_UCTX 0xa04
#define MLX5_SIM_CMD_OP_DESTROY_UCTX 0xa06

/* alias_context.status the sim reports once the owner revoked access. */
#define MLX5_SIM_ALIAS_STATUS_INVALID 0x1

/*
 * Syndromes: one distinct value per rule the device enforces. The status that
 * goes with each is in the comment; mlx5_sim_syndrome_text() gives the text.
 */
enum mlx5_sim_syndrome {
	MLX5_SIM_SYND_OK = 0,
	/* Mailbox and dispatch. */
	MLX5_SIM_SYND_INJECTED = 0x51000001,        /* configured status */
	MLX5_SIM_SYND_BAD_OPCODE = 0x51000002,      /* BAD_OP */
	MLX5_SIM_SYND_IN_LEN = 0x51000003,          /* BAD_INPUT_LEN */
	MLX5_SIM_SYND_OUT_LEN = 0x51000004,         /* BAD_OUTPUT_LEN */
	/* QUERY_HCA_CAP. */
	MLX5_SIM_SYND_CAP_TYPE = 0x51010001,        /* BAD_PARAM */
	MLX5_SIM_SYND_CAP_GENERAL_2_OFF = 0x51010002, /* BAD_PARAM */
	MLX5_SIM_SYND_CAP_QOS_OFF = 0x51010003,     /* BAD_PARAM */
	MLX5_SIM_SYND_CAP_OTHER_FUNC = 0x51010004,  /* BAD_PARAM */
	/* CREATE/QUERY/DESTROY_MKEY. */
	MLX5_SIM_SYND_MKEY_ACCESS_MODE = 0x51020001, /* BAD_PARAM */
	MLX5_SIM_SYND_MKEY_PD_UNKNOWN = 0x51020002, /* BAD_RES */
	MLX5_SIM_SYND_MKEY_PD_FOREIGN = 0x51020003, /* BAD_RES */
	MLX5_SIM_SYND_MKEY_LENGTH64 = 0x51020004,   /* BAD_PARAM */
	MLX5_SIM_SYND_MKEY_LEN_ZERO = 0x51020005,   /* BAD_PARAM */
	MLX5_SIM_SYND_MKEY_RANGE_WRAP = 0x51020006, /* BAD_PARAM */
	MLX5_SIM_SYND_MKEY_MTT_NO_UMEM = 0x51020007, /* BAD_PARAM */
	MLX5_SIM_SYND_MKEY_UMEM_NOT_MTT = 0x51020008, /* BAD_PARAM */
	MLX5_SIM_SYND_MKEY_UMEM_UNKNOWN = 0x51020009, /* BAD_RES */
	MLX5_SIM_SYND_MKEY_UMEM_FOREIGN = 0x5102000a, /* BAD_RES */
	MLX5_SIM_SYND_MKEY_UMEM_RANGE = 0x5102000b, /* BAD_PARAM */
	MLX5_SIM_SYND_MKEY_KLM_TOO_MANY = 0x5102000c, /* BAD_PARAM */
	MLX5_SIM_SYND_MKEY_KLM_COUNT = 0x5102000d,  /* BAD_PARAM */
	MLX5_SIM_SYND_MKEY_KLM_EMPTY = 0x5102000e,  /* BAD_PARAM */
	MLX5_SIM_SYND_MKEY_KLM_ENTRY_LEN = 0x5102000f, /* BAD_PARAM */
	MLX5_SIM_SYND_MKEY_KLM_ENTRY_MKEY = 0x51020010, /* BAD_RES */
	MLX5_SIM_SYND_MKEY_CROSS_CAP = 0x51020011,  /* BAD_PARAM */
	MLX5_SIM_SYND_MKEY_CROSS_VHCA = 0x51020012, /* BAD_PARAM */
	MLX5_SIM_SYND_MKEY_CROSS_TARGET = 0x51020013, /* BAD_RES */
	MLX5_SIM_SYND_MKEY_CROSS_NOT_ALLOWED = 0x51020014, /* BAD_PARAM */
	MLX5_SIM_SYND_MKEY_CROSS_START = 0x51020015, /* BAD_PARAM */
	MLX5_SIM_SYND_MKEY_CROSS_FREE = 0x51020016, /* BAD_PARAM */
	MLX5_SIM_SYND_MKEY_TABLE_FULL = 0x51020017, /* NO_RESOURCES */
	MLX5_SIM_SYND_MKEY_INDEX_RANGE = 0x51020018, /* BAD_INDEX */
	MLX5_SIM_SYND_MKEY_INDEX_UNKNOWN = 0x51020019, /* BAD_RES */
	MLX5_SIM_SYND_MKEY_CRYPTO_CAP = 0x5102001a, /* BAD_PARAM */
	MLX5_SIM_SYND_MKEY_UPDATE_TAG_CAP = 0x5102001b, /* BAD_PARAM */
	MLX5_SIM_SYND_MKEY_KSM_ENTITY = 0x5102001c, /* BAD_PARAM */
	MLX5_SIM_SYND_MKEY_CROSS_NOT_MARKED = 0x5102001d, /* BAD_PARAM */
	/* General objects, alias objects. */
	MLX5_SIM_SYND_GOBJ_TYPE = 0x51030001,       /* BAD_PARAM */
	MLX5_SIM_SYND_GOBJ_NOT_ALIAS = 0x51030002,  /* BAD_PARAM */
	MLX5_SIM_SYND_GOBJ_UNKNOWN = 0x51030003,    /* BAD_RES */
	MLX5_SIM_SYND_GOBJ_MODIFY = 0x51030004,     /* BAD_PARAM */
	MLX5_SIM_SYND_ALIAS_CAP = 0x51030005,       /* BAD_PARAM */
	MLX5_SIM_SYND_ALIAS_VHCA = 0x51030006,      /* BAD_PARAM */
	MLX5_SIM_SYND_ALIAS_OBJECT = 0x51030007,    /* BAD_PARAM */
	MLX5_SIM_SYND_ALIAS_NOT_ALLOWED = 0x51030008, /* BAD_PARAM */
	MLX5_SIM_SYND_ALIAS_KEY = 0x51030009,       /* BAD_PARAM */
	MLX5_SIM_SYND_ALIAS_PD_UNKNOWN = 0x5103000a, /* BAD_RES */
	/* ALLOW_OTHER_VHCA_ACCESS. */
	MLX5_SIM_SYND_ALLOW_CAP = 0x51040001,       /* BAD_PARAM */
	MLX5_SIM_SYND_ALLOW_TYPE = 0x51040002,      /* BAD_PARAM */
	MLX5_SIM_SYND_ALLOW_OBJECT = 0x51040003,    /* BAD_RES */
	MLX5_SIM_SYND_ALLOW_FOREIGN = 0x51040004,   /* BAD_RES */
	MLX5_SIM_SYND_ALLOW_INDIRECT = 0x51040005,  /* BAD_PARAM */
	/* Commands behind verbs-style operations. */
	MLX5_SIM_SYND_PD_TABLE_FULL = 0x51050001,   /* NO_RESOURCES */
	MLX5_SIM_SYND_UAR_TABLE_FULL = 0x51050002,  /* NO_RESOURCES */
	MLX5_SIM_SYND_UMEM_TABLE_FULL = 0x51050003, /* NO_RESOURCES */
	MLX5_SIM_SYND_UMEM_BUSY = 0x51050004,       /* BAD_RES_STATE */
	MLX5_SIM_SYND_UCTX_TABLE_FULL = 0x51050005, /* NO_RESOURCES */
	MLX5_SIM_SYND_PD_UNKNOWN = 0x51050006,      /* BAD_RES */
	MLX5_SIM_SYND_DM_FULL = 0x51050007,         /* NO_RESOURCES */
	/* Completion queues. */
	MLX5_SIM_SYND_CQ_TABLE_FULL = 0x51060001,   /* NO_RESOURCES */
	MLX5_SIM_SYND_CQ_SIZE = 0x51060002,         /* BAD_PARAM */
	MLX5_SIM_SYND_CQ_CQE_SIZE = 0x51060003,     /* BAD_PARAM */
	MLX5_SIM_SYND_CQ_EQN = 0x51060004,          /* BAD_PARAM */
	MLX5_SIM_SYND_CQ_UNKNOWN = 0x51060005,      /* BAD_RES */
	MLX5_SIM_SYND_CQ_BUSY = 0x51060006,         /* BAD_RES_STATE */
	MLX5_SIM_SYND_CQ_COMP = 0x51060007,         /* BAD_PARAM */
	MLX5_SIM_SYND_CQ_COMP_FORMAT = 0x51060008,  /* BAD_PARAM */
	/* Umem-backed rings and doorbell records (CQ, QP). */
	MLX5_SIM_SYND_Q_UMEM_UNKNOWN = 0x51060011,  /* BAD_RES */
	MLX5_SIM_SYND_Q_UMEM_RANGE = 0x51060012,    /* BAD_PARAM */
	MLX5_SIM_SYND_Q_DBR_ALIGN = 0x51060013,     /* BAD_PARAM */
	MLX5_SIM_SYND_Q_UAR = 0x51060014,           /* BAD_PARAM */
	MLX5_SIM_SYND_Q_UMEM_READ_ONLY = 0x51060015, /* BAD_PARAM */
	MLX5_SIM_SYND_Q_RING_ALIGN = 0x51060016,    /* BAD_PARAM */
	/* Queue pairs. */
	MLX5_SIM_SYND_QP_TABLE_FULL = 0x51070001,   /* NO_RESOURCES */
	MLX5_SIM_SYND_QP_TYPE = 0x51070002,         /* BAD_PARAM */
	MLX5_SIM_SYND_QP_PD = 0x51070003,           /* BAD_RES */
	MLX5_SIM_SYND_QP_CQ = 0x51070004,           /* BAD_RES */
	MLX5_SIM_SYND_QP_SIZE = 0x51070005,         /* BAD_PARAM */
	MLX5_SIM_SYND_QP_RQ_TYPE = 0x51070006,      /* BAD_PARAM */
	MLX5_SIM_SYND_QP_TS_FORMAT = 0x51070007,    /* BAD_PARAM */
	MLX5_SIM_SYND_QP_UNKNOWN = 0x51070008,      /* BAD_RES */
	MLX5_SIM_SYND_QP_STATE = 0x51070009,        /* BAD_QP_STATE */
	MLX5_SIM_SYND_QP_PORT = 0x5107000a,         /* BAD_PARAM */
	MLX5_SIM_SYND_QP_MTU = 0x5107000b,          /* BAD_PARAM */
	MLX5_SIM_SYND_QP_REMOTE = 0x5107000c,       /* BAD_PARAM */
	/* Ethernet queue objects: TD, TIS, SQ, RQ. */
	MLX5_SIM_SYND_ETH_TABLE_FULL = 0x51080001,  /* NO_RESOURCES */
	MLX5_SIM_SYND_ETH_TD = 0x51080002,          /* BAD_RES */
	MLX5_SIM_SYND_ETH_PORT = 0x51080003,        /* BAD_PARAM */
	MLX5_SIM_SYND_ETH_PD = 0x51080004,          /* BAD_RES */
	MLX5_SIM_SYND_ETH_STATE = 0x51080005,       /* BAD_PARAM */
	MLX5_SIM_SYND_ETH_CQ = 0x51080006,          /* BAD_RES */
	MLX5_SIM_SYND_ETH_TIS = 0x51080007,         /* BAD_RES */
	MLX5_SIM_SYND_ETH_RATE_INDEX = 0x51080008,  /* BAD_PARAM */
	MLX5_SIM_SYND_ETH_WQ_TYPE = 0x51080009,     /* BAD_PARAM */
	MLX5_SIM_SYND_ETH_WQ_STRIDE = 0x5108000a,   /* BAD_PARAM */
	MLX5_SIM_SYND_ETH_WQ_SIZE = 0x5108000b,     /* BAD_PARAM */
	MLX5_SIM_SYND_ETH_COUNTER = 0x5108000c,     /* BAD_RES */
	MLX5_SIM_SYND_ETH_UNKNOWN = 0x5108000d,     /* BAD_RES */
	MLX5_SIM_SYND_ETH_CUR_STATE = 0x5108000e,   /* BAD_RES_STATE */
	MLX5_SIM_SYND_ETH_BITMASK = 0x5108000f,     /* BAD_PARAM */
	MLX5_SIM_SYND_ETH_OTHER_VPORT = 0x51080010, /* BAD_PARAM */
	MLX5_SIM_SYND_ETH_RQT_SIZE = 0x51080011,    /* BAD_PARAM */
	MLX5_SIM_SYND_ETH_RQT_RQ = 0x51080012,      /* BAD_RES */
	MLX5_SIM_SYND_ETH_TIR_DEST = 0x51080013,    /* BAD_RES */
	MLX5_SIM_SYND_ETH_TIR_HASH = 0x51080014,    /* BAD_PARAM */
	MLX5_SIM_SYND_ETH_TIR_FEATURE = 0x51080015, /* BAD_PARAM */
	MLX5_SIM_SYND_ETH_BUSY = 0x51080016,        /* BAD_RES_STATE */
	MLX5_SIM_SYND_ETH_MPW = 0x51080017,         /* BAD_PARAM */
	/* DEK objects. */
	MLX5_SIM_SYND_DEK_ALIAS = 0x51090001,       /* BAD_PARAM */
	MLX5_SIM_SYND_DEK_PURPOSE = 0x51090002,     /* BAD_PARAM */
	MLX5_SIM_SYND_DEK_SIZE = 0x51090003,        /* BAD_PARAM */
	MLX5_SIM_SYND_DEK_PD = 0x51090004,          /* BAD_RES */
	MLX5_SIM_SYND_DEK_TABLE_FULL = 0x51090005,  /* NO_RESOURCES */
	/* Wrapped import: the crypto login and wrapped DEKs. */
	MLX5_SIM_SYND_DEK_LOGIN = 0x51090006,       /* BAD_RES_STATE */
	MLX5_SIM_SYND_DEK_UNWRAP = 0x51090007,      /* BAD_PARAM */
	MLX5_SIM_SYND_CRYPTO_COMMISSIONING = 0x51090008, /* BAD_RES_STATE */
	MLX5_SIM_SYND_LOGIN_POINTER = 0x51090009,   /* BAD_PARAM */
	MLX5_SIM_SYND_LOGIN_DENIED = 0x5109000a,    /* BAD_PARAM */
	MLX5_SIM_SYND_LOGIN_BUSY = 0x5109000b,      /* BAD_RES_STATE */
	/* Queue counters. */
	MLX5_SIM_SYND_QCNT_TABLE_FULL = 0x510a0001, /* NO_RESOURCES */
	MLX5_SIM_SYND_QCNT_UNKNOWN = 0x510a0002,    /* BAD_RES */
	MLX5_SIM_SYND_QCNT_BUSY = 0x510a0003,       /* BAD_RES_STATE */
	/* Flow counters. */
	MLX5_SIM_SYND_FCNT_TABLE_FULL = 0x510b0001, /* NO_RESOURCES */
	MLX5_SIM_SYND_FCNT_UNKNOWN = 0x510b0002,    /* BAD_RES */
	MLX5_SIM_SYND_FCNT_BUSY = 0x510b0003,       /* BAD_RES_STATE */
	MLX5_SIM_SYND_FCNT_BULK = 0x510b0004,       /* BAD_PARAM */
	/* Verbs queue objects: lag ports, CQ moderation, RMPs (SRQs). */
	MLX5_SIM_SYND_VERBS_LAG_PORT = 0x51100001,  /* BAD_PARAM */
	MLX5_SIM_SYND_VERBS_CQ_MODIFY = 0x51100002, /* BAD_PARAM */
	MLX5_SIM_SYND_RMP_TABLE_FULL = 0x51100003,  /* NO_RESOURCES */
	MLX5_SIM_SYND_RMP_UNKNOWN = 0x51100004,     /* BAD_RES */
	MLX5_SIM_SYND_RMP_PARAM = 0x51100005,       /* BAD_PARAM */
	MLX5_SIM_SYND_RMP_PD = 0x51100006,          /* BAD_RES */
	MLX5_SIM_SYND_RMP_BITMASK = 0x51100007,     /* BAD_PARAM */
	MLX5_SIM_SYND_RMP_STATE = 0x51100008,       /* BAD_RES_STATE */
	MLX5_SIM_SYND_RMP_BUSY = 0x51100009,        /* BAD_RES_STATE */
	/* XRC domains and XRC SRQs. */
	MLX5_SIM_SYND_XRCD_UNKNOWN = 0x51110001,    /* BAD_RES */
	MLX5_SIM_SYND_XRCD_BUSY = 0x51110002,       /* BAD_RES_STATE */
	MLX5_SIM_SYND_XRCD_TABLE_FULL = 0x51110003, /* NO_RESOURCES */
	MLX5_SIM_SYND_XSRQ_PARAM = 0x51110004,      /* BAD_PARAM */
	MLX5_SIM_SYND_XSRQ_RES = 0x51110005,        /* BAD_RES */
	MLX5_SIM_SYND_XSRQ_UNKNOWN = 0x51110006,    /* BAD_RES */
	MLX5_SIM_SYND_QP_XRCD = 0x51110007,         /* BAD_RES */
};

/** Live objects and command counters of one vHCA. */
struct mlx5_sim_stats {
	uint64_t contexts;     /**< Open contexts (opened and imported). */
	uint64_t pds;          /**< Protection domains. */
	uint64_t mrs;          /**< Verbs memory regions (reg_mr). */
	uint64_t mkeys;        /**< DEVX CREATE_MKEY objects + mlx5dv mkeys. */
	uint64_t umems;        /**< DEVX umems. */
	uint64_t uars;         /**< DEVX UAR pages. */
	uint64_t general_objs; /**< General objects (alias objects). */
	uint64_t pp_entries;   /**< Rate-table entries in use. */
	uint64_t allowed;      /**< Mkeys granted to other vHCAs. */
	uint64_t cqs;          /**< Completion queues. */
	uint64_t qps;          /**< Queue pairs. */
	uint64_t sqs;          /**< Send queues. */
	uint64_t rqs;          /**< Receive queues. */
	uint64_t tiss;         /**< Transport interface send objects. */
	uint64_t tds;          /**< Transport domains. */
	uint64_t rqts;         /**< RQ tables. */
	uint64_t tirs;         /**< Transport interface receive objects. */
	uint64_t q_counters;   /**< Queue counter sets. */
	uint64_t flows;        /**< Steering rules (flow table entries). */
	/** Flow tables above the root (libmlx5's software steering's). */
	uint64_t flow_tables;
	uint64_t flow_counters; /**< Flow counters (ALLOC_FLOW_COUNTER). */
	uint64_t srqs;         /**< Shared receive queues (verbs SRQs, XRC SRQs). */
	uint64_t dms;          /**< Device memory pieces (ibv_alloc_dm). */
	uint64_t xrcds;        /**< XRC domains (XRC SRQs count as srqs). */
	uint64_t live_objects; /**< Sum of the counts above except contexts. */
	uint64_t reclaimed;    /**< Objects freed because their file closed. */
	uint64_t commands;     /**< Firmware commands issued. */
	uint64_t failed_commands; /**< Commands refused (rules or faults). */
	/** Compressed CQE sessions written (CQE compression). */
	uint64_t compressed_sessions;
	/** CQEs written in them (each session holds 2 or more). */
	uint64_t compressed_cqes;
};

/** Frame counters of a port of the software device. */
struct mlx5_sim_port_stats {
	uint64_t tx_frames;      /**< Frames sent out of the port. */
	uint64_t tx_bytes;
	uint64_t tx_link_down;   /**< Sent while the port had no cable. */
	uint64_t rx_frames;      /**< Frames delivered to an RQ. */
	uint64_t rx_bytes;
	uint64_t rx_oversize;    /**< Longer than the vport's MTU allows. */
	uint64_t rx_no_rule;     /**< No steering rule matched. */
	uint64_t rx_rule_drop;   /**< Dropped by a steering rule's action. */
	uint64_t rx_self_lb;     /**< Blocked by the TIR's self-loopback block. */
	uint64_t rx_rq_not_ready; /**< The RQ was not ready. */
	uint64_t rx_out_of_buffer; /**< The RQ had no posted WQE. */
	uint64_t rx_errors;      /**< Error completions of receive WQEs. */
};

/**
 * Frame counters of port @p port (1 or 2) of a vHCA.
 *
 * @return
 *   0, or -ENODEV (no such vHCA or port) with errno set.
 */
int mlx5_sim_port_stats(uint16_t card, uint16_t vhca_id, uint8_t port,
			struct mlx5_sim_port_stats *st);

/**
 * Transfer data through the device's address translation, as a DMA engine
 * of the vHCA of @p ctx would: (lkey, addr, len) is translated through the
 * mkey table with every check the hardware makes (key exists and is not
 * free, variant byte, PD, access rights, range; KLM entries re-translated,
 * crossing and alias keys followed to the owner vHCA while it still grants
 * access), then the bytes are copied.
 *
 * @param ctx
 *   A sim device context: the vHCA doing the access.
 * @param pdn
 *   PD number of the queue doing the access.
 * @param lkey
 *   Memory key.
 * @param addr
 *   Address in the key's address space.
 * @param buf
 *   Local buffer: source when @p to_memory, destination otherwise.
 * @param len
 *   Byte count (0 validates the key only).
 * @param to_memory
 *   true: device write of @p buf into memory (needs local write, lw);
 *   false: device read of memory into @p buf (needs local read, lr).
 * @param cqe_syndrome
 *   Optional; on failure receives the completion syndrome
 *   (MLX5_CQE_SYNDROME_LOCAL_PROT_ERR for every translation failure,
 *   MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR for a length above 2^31), 0 on success.
 *
 * @return
 *   0 on success, a negative errno value otherwise and errno is set;
 *   nothing is copied on failure:
 *   -EINVAL @p ctx is not a sim context or @p buf is NULL with @p len > 0;
 *   -ENOENT the key, or a key it leads to, does not exist (destroyed, wrong
 *   variant byte);
 *   -EACCES PD mismatch, missing access right, free key, the owner vHCA
 *   revoked access (or the alias key no longer matches), KLM nesting deeper
 *   than 8 levels, or an MTT write into a umem registered read-only;
 *   -EFAULT the range is outside the key or wraps around, or (on-demand
 *   paging key) is not mapped in the process;
 *   -EMSGSIZE @p len is above 2^31;
 *   -ENOMEM no memory for the translation list.
 */
int mlx5_sim_dma(struct ibv_context *ctx, uint32_t pdn, uint32_t lkey,
		 uint64_t addr, void *buf, size_t len, bool to_memory,
		 uint8_t *cqe_syndrome);

/**
 * Arm fault injection on a vHCA, replacing its current setting.
 *
 * @param opcode
 *   Opcode to fail, or -1 for any opcode.
 * @param nth
 *   1..: only the nth matching command counted from now fails, once;
 *   0: every matching command fails.
 * @param status
 *   PRM status the failing command returns (non-zero).
 *
 * @return
 *   0 on success, a negative errno value otherwise and errno is set:
 *   -ENOENT unknown card/vHCA, -EINVAL bad opcode or status 0.
 */
int mlx5_sim_fault_set(uint16_t card, uint16_t vhca_id, int opcode,
		       uint32_t nth, uint8_t status);

/**
 * Start the device's doorbell thread, which takes plain 8-byte stores to
 * the BlueFlame registers (0x800, 0x900) of every UAR page as doorbells,
 * as a NIC does (a front whose programs ring doorbells that way starts
 * it; the vdev's kick hook needs none). Idempotent; the thread stops when
 * the model is unloaded.
 *
 * @return
 *   0, or a negative errno (the thread could not start).
 */
int mlx5_sim_doorbell_watch(void);

/**
 * Disarm fault injection on a vHCA.
 *
 * @return
 *   0 on success, a negative errno value otherwise and errno is set:
 *   -ENOENT unknown card/vHCA.
 */
int mlx5_sim_fault_clear(uint16_t card, uint16_t vhca_id);

/**
 * Read the live object counts and command counters of a vHCA.
 *
 * @return
 *   0 on success, a negative errno value otherwise and errno is set:
 *   -ENOENT unknown card/vHCA, -EINVAL @p st is NULL.
 */
int mlx5_sim_vhca_stats(uint16_t card, uint16_t vhca_id,
			struct mlx5_sim_stats *st);

/**
 * Tell which card and vHCA a sim context belongs to.
 *
 * @param card
 *   Optional; receives the card number.
 * @param vhca_id
 *   Optional; receives the vHCA id.
 *
 * @return
 *   0 on success, a negative errno value otherwise and errno is set:
 *   -EINVAL @p ctx is not an open sim context.
 */
int mlx5_sim_vhca_id_of_ctx(struct ibv_context *ctx, uint16_t *card,
			    uint16_t *vhca_id);

/**
 * Tell whether a context was opened (or imported) by the sim backend.
 *
 * @return
 *   true for an open sim context, false otherwise (errno untouched).
 */
bool mlx5_sim_is_ctx(struct ibv_context *ctx);

/**
 * The text of a sim syndrome, for logs and test messages.
 *
 * @return
 *   A static string; "unknown syndrome" for values not in the table.
 */
const char *mlx5_sim_syndrome_text(uint32_t syndrome);

/** How registrations check that the kernel could pin their pages. */
enum mlx5_sim_pin_check {
	/** madvise(MADV_POPULATE_*) where the kernel has it, else maps. */
	MLX5_SIM_PIN_CHECK_AUTO,
	/** Always read /proc/self/maps (the path of kernels before 5.14). */
	MLX5_SIM_PIN_CHECK_MAPS,
};

/**
 * Choose how registrations check their pages (process-wide; tests run
 * both paths). The rules are the same either way.
 */
void mlx5_sim_pin_check_set(enum mlx5_sim_pin_check how);

/**
 * Levels of the device's log lines: the numbers of syslog, which are also
 * rte_log's (RTE_LOG_ERR ... RTE_LOG_DEBUG).
 */
enum mlx5_sim_log_level {
	MLX5_SIM_LOG_ERR = 4,
	MLX5_SIM_LOG_WARNING = 5,
	MLX5_SIM_LOG_NOTICE = 6,
	MLX5_SIM_LOG_INFO = 7,
	MLX5_SIM_LOG_DEBUG = 8,
};

/** A front's sink of the device's log lines (one line, ending with \n). */
typedef void (mlx5_sim_log_sink_t)(int level, const char *line);
/** Whether a front wants lines of @level (checked before formatting). */
typedef bool (mlx5_sim_log_enabled_t)(int level);

/**
 * Where the device's log lines go: a front (the vdev adapter: rte_log on
 * the log type pmd.common.mlx5.sim) installs its sink and level check.
 * NULL for either restores the default: lines up to WARNING on stderr.
 * The model itself calls nothing of EAL.
 */
void mlx5_sim_log_set(mlx5_sim_log_sink_t *sink,
		      mlx5_sim_log_enabled_t *enabled);

/** Whether lines of @level go anywhere (the installed check). */
bool mlx5_sim_log_enabled(int level);

#endif /* MLX5_SIM_H_ */
