/* fuzz-render.c — every output from a decoded profile.  The input: one byte that chooses the
 * output (bits 0-2: summary text, summary JSON, Chrome, Perfetto, OTF2, SQLite, a split Chrome
 * trace; bits 3-4: the grouping of Chrome and Perfetto tracks; bit 5: a time window), the
 * length of the chunk file (4 bytes, little-endian), the chunk file (.tpf), and the rest the
 * spool (.spool) of the same process image, when there is any. */
#include <string.h>

#include "driver.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const groups[] = { "process", "domain", "neuroncore", "instance" };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char dir[512], out[512];
	if (size < 5)
		return 0;
	unsigned sel = data[0];
	size_t n = (size_t)data[1] | (size_t)data[2] << 8 | (size_t)data[3] << 16 |
		   (size_t)data[4] << 24;
	data += 5, size -= 5;
	if (n > size)
		n = size;
	fuzz_clear();
	fuzz_write("p/fz.1.00000001.tpf", data, n);
	if (size > n)
		fuzz_write("p/fz.1.00000001.spool", data + n, size - n);
	fuzz_path(dir, sizeof(dir), "p");
	const char *win[] = { "--start", "10", "--end", "200000" };
	int w = sel & 0x20 ? 4 : 0;
	const char *g = groups[sel >> 3 & 3];
	switch (sel & 7) {
	case 0:
		fuzz_analyze(dir, "-s", "--no-progress", w ? win[0] : NULL, win[1], win[2], win[3],
			     NULL);
		break;
	case 1:
		fuzz_analyze(dir, "--summary=json", "--no-progress", w ? win[0] : NULL, win[1],
			     win[2], win[3], NULL);
		break;
	case 2:
		fuzz_analyze(dir, "-f", "chrome", "-o", fuzz_path(out, sizeof(out), "t.json"),
			     "--group-by", g, "--no-progress", w ? win[0] : NULL, win[1], win[2],
			     win[3], NULL);
		break;
	case 3:
		fuzz_analyze(dir, "-f", "perfetto", "-o", fuzz_path(out, sizeof(out), "t.pftrace"),
			     "--group-by", g, "--no-progress", w ? win[0] : NULL, win[1], win[2],
			     win[3], NULL);
		break;
	case 4:
		fuzz_analyze(dir, "-f", "otf2", "-o", fuzz_path(out, sizeof(out), "t.otf2"),
			     "--no-progress", w ? win[0] : NULL, win[1], win[2], win[3], NULL);
		break;
	case 5:
		fuzz_analyze(dir, "-f", "sqlite", "-o", fuzz_path(out, sizeof(out), "t.db"),
			     "--no-progress", w ? win[0] : NULL, win[1], win[2], win[3], NULL);
		break;
	default:
		fuzz_analyze(dir, "-f", "chrome", "--split", "size:0.01", "-o",
			     fuzz_path(out, sizeof(out), "t.json"), "--no-progress",
			     w ? win[0] : NULL, win[1], win[2], win[3], NULL);
		break;
	}
	return 0;
}
