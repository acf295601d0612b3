/* mkneff.c — writes a NEFF file the stand-in Neuron runtime loads: the real 1024-byte header
 * (header_size, data_size, NEFF version 2, the build-version text at 40, the model name at 220,
 * the NeuronCores it needs at 476, a uuid from the name), then the stand-in's key=value text
 * (tests/stand-ins/nrt/models.c) as the data.
 * Usage: mkneff OUT NAME [ncs=N] [exec_us=N] [add=F] [in=NAME:BYTES]... [out=NAME:BYTES]...
 *        [status=N] [major=N]
 * ncs= and major= go into the header; everything else into the text.  exec_us= goes into
 * neff_build_version ("standin exec_us=N"), the rest after the header. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HEADER 1024

static void put64(unsigned char *h, size_t off, uint64_t v)
{
	memcpy(h + off, &v, sizeof(v));
}

int main(int argc, char **argv)
{
	unsigned char h[HEADER];
	char text[4096] = "standin";
	uint32_t ncs = 1;
	uint64_t major = 2;
	if (argc < 3 || strlen(argv[2]) > 255) {
		fprintf(stderr, "usage: %s OUT NAME [ncs=N] [exec_us=N] [add=F] [in=NAME:BYTES]... "
			"[out=NAME:BYTES]... [status=N] [major=N]\n", argv[0]);
		return 2;
	}
	memset(h, 0, sizeof(h));
	snprintf((char *)h + 40, 128, "standin");
	for (int i = 3; i < argc; i++) {
		if (!strncmp(argv[i], "ncs=", 4)) {
			ncs = (uint32_t)strtoul(argv[i] + 4, NULL, 10);
		} else if (!strncmp(argv[i], "major=", 6)) {
			major = strtoull(argv[i] + 6, NULL, 10);
		} else if (!strncmp(argv[i], "exec_us=", 8)) {
			snprintf((char *)h + 40, 128, "standin %s", argv[i]);
		} else if (strlen(text) + strlen(argv[i]) + 2 < sizeof(text)) {
			strcat(text, "\n");
			strcat(text, argv[i]);
		}
	}
	size_t data = strlen(text) + 1;
	put64(h, 0, 1);                      /* pkg_version */
	put64(h, 8, HEADER);                 /* header_size */
	put64(h, 16, data);                  /* data_size */
	put64(h, 24, major);                 /* neff_version_major */
	put64(h, 32, 0);                     /* neff_version_minor */
	memcpy(h + 168, &ncs, 4);            /* num_tpb */
	for (size_t i = 0; argv[2][i] && i < 16; i++)
		h[204 + i] = (unsigned char)argv[2][i];   /* uuid */
	memcpy(h + 220, argv[2], strlen(argv[2]));   /* name */
	memcpy(h + 476, &ncs, 4);            /* requested_tpb_count */
	FILE *f = fopen(argv[1], "wb");
	if (!f || fwrite(h, 1, sizeof(h), f) != sizeof(h) || fwrite(text, 1, data, f) != data ||
	    fclose(f) != 0) {
		perror(argv[1]);
		return 1;
	}
	return 0;
}
