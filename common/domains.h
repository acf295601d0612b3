/* domains.h — the runtimes whose API calls tprof records, one line each: the number a CALL
 * record gives its domain, and what the recorder and every output say of it.  Adding a
 * runtime's calls is one line here plus its folders (preload/<name>/ and
 * analyze/runtimes/<name>/); each place that needs a domain's facts expands this list.
 *
 *   X(NAME, value, key, title, json, otf2_desc, otf2_paradigm, filtered, device)
 *
 * NAME      TPROF_DOM_<NAME>, enum tprof_domain
 * value     its number in CALL and POLL records: kept by the profiles, never reused
 * key       its calls' category in traces (Chrome's "cat", Perfetto, OTF2's region kinds)
 * title     the heading of its calls' table in --summary
 * json      that table's key in --summary-format json; NULL when the runtime writes a part of
 *           its own in place of the table (MPI, NCCL)
 * otf2_desc what OTF2's definitions say its calls' regions are
 * otf2_paradigm
 *           their OTF2 paradigm, OTF2_PARADIGM_<otf2_paradigm>
 * filtered  1 when TPROF_<NAME>_API_FILTER and TPROF_<NAME>_API_FILTER_OUT choose which of
 *           its calls the recorder records
 * device    1 when its calls launch work the recorder times on a device (DEVICE records) */
#ifndef TPROF_DOMAINS_H
#define TPROF_DOMAINS_H

#define TPROF_DOMAINS(X)                                                                   \
	X(HIP, 1, "hip", "HIP API", "hip_api", "HIP API call", HIP, 1, 1)                  \
	X(MPI, 2, "mpi", "MPI", NULL, "MPI call", MPI, 1, 0)                               \
	X(NCCL, 3, "nccl", "NCCL", NULL, "NCCL call", USER, 1, 1)                          \
	X(NRT, 4, "nrt", "NRT API", "nrt_api", "Neuron runtime call", USER, 1, 0)          \
	X(CUDA, 5, "cuda", "CUDA", "cuda_api", "CUDA API call", CUDA, 0, 1)

/* The runtime an API call belongs to (flags of CALL); 0 is none of them. */
enum tprof_domain {
#define TPROF_DOMAIN_ENUM(name, value, ...) TPROF_DOM_##name = value,
	TPROF_DOMAINS(TPROF_DOMAIN_ENUM)
#undef TPROF_DOMAIN_ENUM
};

/* The domains' numbers run from 1 without a gap: an array indexed by domain has
 * TPROF_NDOMAINS entries, the first for calls of no known domain. */
enum {
#define TPROF_DOMAIN_ONE(...) +1
	TPROF_NDOMAINS = 1 TPROF_DOMAINS(TPROF_DOMAIN_ONE)
#undef TPROF_DOMAIN_ONE
};
#define TPROF_DOMAIN_CHECK(name, value, ...)                                               \
	_Static_assert((value) > 0 && (value) < TPROF_NDOMAINS, "domain numbers run from 1, no gap");
TPROF_DOMAINS(TPROF_DOMAIN_CHECK)
#undef TPROF_DOMAIN_CHECK

/* 1 when calls of domain d launch work the recorder times on a device. */
static inline int tprof_domain_device(unsigned d)
{
	switch (d) {
#define TPROF_DOMAIN_DEVICE(name, value, key, title, json, desc, paradigm, filtered, device) \
	case value: return device;
	TPROF_DOMAINS(TPROF_DOMAIN_DEVICE)
#undef TPROF_DOMAIN_DEVICE
	default:
		return 0;
	}
}

#endif
