/* format.h — the on-disk contract between the recorder (preload/) and the reader (analyze/).
 * Two files per profiled process image: a spool (raw per-thread buffers, memory-mapped, so the
 * kernel keeps them whatever happens to the process) and a chunk file (compressed, CRC'd chunks
 * appended by the flusher).  docs/FORMAT.md describes the same in prose. */
#ifndef TPROF_FORMAT_H
#define TPROF_FORMAT_H

#include <stdint.h>

#define TPROF_FORMAT_VERSION 1
#define TPROF_BYTE_ORDER_MARK 0x01020304u

#define TPROF_TRACE_SUFFIX ".tpf"
#define TPROF_SPOOL_SUFFIX ".spool"
/* What tprof-inspect --hang-report writes into the output directory when the job hangs. */
#define TPROF_HANG_REPORT "hang-report.txt"

/* One unit of a record: every record is one unit plus `ext` extension units. */
#define TPROF_UNIT 32u
#define TPROF_MAX_EXT 255u

struct tprof_rec {
	uint16_t kind;  /* enum tprof_kind; 0 = no record (end of written data in a slot) */
	uint8_t ext;    /* extension units that follow this one */
	uint8_t flags;  /* kind-specific */
	uint32_t name;  /* interned string id, 0 = none */
	uint64_t t0;    /* ticks (see TPROF_K_CLOCK) */
	uint64_t t1;    /* span end in ticks (0 = did not finish), or kind-specific */
	uint64_t arg;   /* kind-specific */
};
_Static_assert(sizeof(struct tprof_rec) == TPROF_UNIT, "record unit is 32 bytes");

/* The first 8 bytes of a record (kind, ext, flags, name) as one little-endian word: the
 * recorder publishes a record by storing this word last. */
typedef uint64_t __attribute__((may_alias)) tprof_word;

/* ---- chunk file: "<base>.tpf" ------------------------------------------------------------ */

#define TPROF_FILE_MAGIC "TPROF\0TR"
#define TPROF_FILE_HEADER_SIZE 64u

struct tprof_file_header {
	char magic[8];          /* TPROF_FILE_MAGIC */
	uint16_t version;       /* TPROF_FORMAT_VERSION */
	uint16_t header_size;   /* TPROF_FILE_HEADER_SIZE */
	uint32_t byte_order;    /* TPROF_BYTE_ORDER_MARK as written by the recorder */
	uint64_t instance;      /* random id of this process image, shared with its spool */
	uint32_t pid;
	uint32_t flags;         /* TPROF_FILE_* bits; the others 0 */
	uint64_t created_ns;    /* CLOCK_REALTIME when the file was created */
	uint64_t job;           /* the job the process image belongs to (common/job.h); 0 =
				 * unknown (files written before jobs were recorded) */
	uint8_t reserved[12];
	uint32_t header_crc;    /* crc32 of the bytes before this field */
};
_Static_assert(sizeof(struct tprof_file_header) == TPROF_FILE_HEADER_SIZE, "file header size");
/* The image is a system image (docs/FORMAT.md §3.9): readers that share out a profile's files
 * can tell it without reading its records.  Files written before this bit was set carry 0. */
#define TPROF_FILE_SYSTEM 0x1u

#define TPROF_CHUNK_MAGIC "TPCK"
#define TPROF_CHUNK_HEADER_SIZE 64u
/* The chunk's encoding: which version of the record codec (codec.h) and how its bytes are
 * compressed.  Files written before the packed codec hold encodings 1 and 2; they still read. */
#define TPROF_ENC_VARINT_DEFLATE 1u  /* payload = deflate(codec version 1) */
#define TPROF_ENC_VARINT_RAW 2u      /* payload = codec version 1 as it is (comp_len = raw_len,
					payload_crc 0): an image read once, right away, by the
					program that wrote it */
#define TPROF_ENC_PACKED_DEFLATE 3u  /* payload = deflate(codec version 2) */
#define TPROF_ENC_PACKED_RAW 4u      /* payload = codec version 2 as it is, as encoding 2 */

struct tprof_chunk_header {
	char magic[4];          /* TPROF_CHUNK_MAGIC */
	uint16_t version;       /* TPROF_FORMAT_VERSION */
	uint16_t header_size;   /* TPROF_CHUNK_HEADER_SIZE */
	uint32_t stream;        /* 0 = the process stream, 1.. = threads */
	uint32_t seq;           /* buffer sequence number within the stream */
	uint32_t first;         /* index of the first unit within that buffer */
	uint32_t units;         /* units encoded in this chunk */
	uint64_t t_first;       /* t0 of the first record, ticks */
	uint64_t t_last;        /* largest t0 in the chunk, ticks */
	uint32_t raw_len;       /* bytes of the encoded (not yet deflated) payload */
	uint32_t comp_len;      /* bytes of payload that follow this header */
	uint32_t payload_crc;   /* crc32 of the comp_len payload bytes */
	uint32_t encoding;      /* TPROF_ENC_* */
	uint32_t records;       /* records (not units) in the chunk */
	uint32_t header_crc;    /* crc32 of the bytes before this field */
};
_Static_assert(sizeof(struct tprof_chunk_header) == TPROF_CHUNK_HEADER_SIZE, "chunk header size");

/* Hard limits a reader enforces before trusting a header. */
#define TPROF_MAX_CHUNK_RAW (64u << 20)
#define TPROF_MAX_CHUNK_UNITS (TPROF_MAX_CHUNK_RAW / TPROF_UNIT)

/* ---- spool: "<base>.spool" --------------------------------------------------------------- */

#define TPROF_SPOOL_MAGIC "TPROF\0SP"
#define TPROF_SPOOL_HEADER_SIZE 4096u

struct tprof_spool_header {
	char magic[8];          /* TPROF_SPOOL_MAGIC */
	uint16_t version;
	uint16_t header_size;   /* TPROF_SPOOL_HEADER_SIZE: slots start at this offset */
	uint32_t byte_order;
	uint64_t instance;      /* same as the chunk file's */
	uint32_t pid;
	uint32_t slot_bytes;    /* size of each slot, its header included */
	uint64_t created_ns;
	uint64_t job;           /* as the chunk file's */
	uint8_t reserved[12];
	uint32_t header_crc;
};
_Static_assert(sizeof(struct tprof_spool_header) == 64, "spool header size");

/* The loss table: the rest of the spool's header page, mapped shared by the recorder, counts
 * every record it could not keep, per thread and reason, where a SIGKILL or a full disk
 * cannot take the count away (the page's block exists from the spool's creation).  A fork
 * child that could not create files of its own counts here too, per process and reason, in
 * the table of the nearest ancestor that has one.  Entries of this image's threads are taken
 * from the front (an atomic add on `claimed`), those of descendants from the back
 * (`claimed_desc`), TPROF_LOSS_DESC_SHARE of them at most; an entry whose `kind` is still 0
 * holds nothing.  Counts only grow. */
#define TPROF_LOSS_MAGIC 0x534c5054u  /* "TPLS" */
#define TPROF_LOSS_OFFSET 64u         /* right after struct tprof_spool_header */

enum tprof_loss_kind {
	TPROF_LOSS_THREAD = 1,      /* a thread of this image */
	TPROF_LOSS_DESCENDANT = 2,  /* a thread of a descendant image that has no files */
};

struct tprof_loss_entry {
	uint8_t kind;           /* enum tprof_loss_kind, 0: not written yet */
	uint8_t reason;         /* enum tprof_drop_reason */
	uint16_t reserved;
	uint32_t stream;        /* the thread's stream id, 0 when it has none */
	int32_t tid;            /* the thread (TPROF_LOSS_DESCENDANT: the first that counted) */
	int32_t pid;            /* the process image's pid */
	int32_t ppid;           /* TPROF_LOSS_DESCENDANT: its parent */
	uint32_t instance;      /* TPROF_LOSS_DESCENDANT: the low 32 bits of its instance */
	uint64_t count;         /* records lost */
};
_Static_assert(sizeof(struct tprof_loss_entry) == 32, "loss entry size");

struct tprof_loss_table {
	uint32_t magic;         /* TPROF_LOSS_MAGIC */
	uint16_t header_size;   /* sizeof(struct tprof_loss_table): the entries follow */
	uint16_t entry_size;    /* sizeof(struct tprof_loss_entry) */
	uint32_t capacity;      /* entries */
	uint32_t claimed;       /* entries taken from the front; beyond capacity - TPROF_LOSS_
				 * DESC_SHARE a thread's count goes to overflow */
	uint64_t overflow[8];   /* by reason: losses of this image's threads without an entry */
	uint64_t reserved0;     /* 0 (a descendant finding no entry leaves a marker file, as one
				 * without any table does) */
	uint32_t complete;      /* 1: DROP records in the chunk file account for every loss of
				 * this image's threads (set at a clean exit) */
	uint32_t claimed_desc;  /* entries taken from the back, for descendants */
	uint8_t reserved[32];
};
_Static_assert(sizeof(struct tprof_loss_table) == 128, "loss table header size");
#define TPROF_LOSS_CAPACITY \
	((TPROF_SPOOL_HEADER_SIZE - TPROF_LOSS_OFFSET - sizeof(struct tprof_loss_table)) / \
	 sizeof(struct tprof_loss_entry))
#define TPROF_LOSS_DESC_SHARE 32u   /* entries at the back a descendant may take */

/* A process image whose files could not be created and that has no ancestor's table leaves an
 * empty file "<host>.<pid>.<id>.lost" in the output directory (no data blocks: it can be made
 * on a full disk), renamed at exit to "<host>.<pid>.<id>.lost-<N>", N the records it lost. */
#define TPROF_LOST_SUFFIX ".lost"

#define TPROF_SLOT_MAGIC 0x4c535054u  /* "TPSL" */
#define TPROF_SLOT_HEADER_SIZE 64u

enum tprof_slot_state {
	TPROF_SLOT_FREE = 0,    /* holds nothing */
	TPROF_SLOT_ACTIVE = 1,  /* a thread is writing into it */
	TPROF_SLOT_FULL = 2,    /* handed to the flusher */
};

/* Lives in the mapped file: written by the recorder, read after the process is gone. */
struct tprof_slot_header {
	uint32_t magic;         /* TPROF_SLOT_MAGIC */
	uint32_t state;         /* enum tprof_slot_state */
	uint32_t stream;
	uint32_t seq;
	uint32_t flushed;       /* units already in the chunk file */
	uint32_t capacity;      /* units the slot can hold */
	uint8_t reserved[40];
};
_Static_assert(sizeof(struct tprof_slot_header) == TPROF_SLOT_HEADER_SIZE, "slot header size");

#endif
