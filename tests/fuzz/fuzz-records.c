/* fuzz-records.c — the record codec's decoder (common/codec.c), which the chunk reader reaches
 * only with a payload whose CRC holds: the input less its first byte is the payload of one
 * chunk not compressed, of a thread stream, alone in a chunk file whose headers and CRCs are
 * made here; the first byte's low bit chooses the codec's version (0: 2, encoding 4; 1: 1,
 * encoding 2).  Read and summarised by tprof-analyze. */
#include <stdlib.h>
#include <string.h>

#include "../../common/chunk.h"
#include "driver.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1 || size - 1 > TPROF_MAX_CHUNK_RAW)
		return 0;
	uint32_t n = (uint32_t)(size - 1);
	/* as many records and units as the payload could hold: the reader stops at its end */
	struct tprof_enc_info info = { .units = n / 4 + 1, .records = n / 7 + 1 };
	struct tprof_file_header fh;
	struct tprof_chunk_header ch;
	tprof_file_header_init(&fh, 1, 1, 0, 0);
	tprof_chunk_header_init(&ch, 1, 0, 0, &info, n, data + 1, n,
				data[0] & 1 ? TPROF_ENC_VARINT_RAW : TPROF_ENC_PACKED_RAW);
	uint8_t *file = malloc(sizeof(fh) + sizeof(ch) + n);
	if (!file)
		return 0;
	memcpy(file, &fh, sizeof(fh));
	memcpy(file + sizeof(fh), &ch, sizeof(ch));
	memcpy(file + sizeof(fh) + sizeof(ch), data + 1, n);
	char p[512];
	fuzz_clear();
	fuzz_write("p/fz.1.00000001.tpf", file, sizeof(fh) + sizeof(ch) + n);
	free(file);
	fuzz_analyze(fuzz_path(p, sizeof(p), "p"), "--summary", "--no-progress", NULL);
	return 0;
}
