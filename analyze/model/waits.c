/* waits.c — the names of the kinds of wait state (model/waits.h). */
#include "waits.h"

static const char *const keys[WAIT_KINDS] = {
	"?", "late_sender", "late_receiver", "wait_nxn", "wait_barrier", "late_broadcast",
	"early_reduce", "late_device_collective",
};
static const char *const words[WAIT_KINDS] = {
	"?", "late sender", "late receiver", "wait at N x N", "wait at barrier",
	"late broadcast", "early reduce", "late arrival at a device collective",
};

const char *wait_kind_key(unsigned kind)
{
	return kind < WAIT_KINDS ? keys[kind] : "?";
}

const char *wait_kind_words(unsigned kind)
{
	return kind < WAIT_KINDS ? words[kind] : "?";
}
