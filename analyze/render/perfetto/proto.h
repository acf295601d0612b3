/* render/perfetto/proto.h — the field numbers of the parts of Perfetto's trace schema
 * (perfetto_trace.proto, package perfetto.protos) that the writer uses, named
 * MESSAGE_FIELD, and the constants it sets. */
#ifndef TPROF_ANALYZE_PERFETTO_PROTO_H
#define TPROF_ANALYZE_PERFETTO_PROTO_H

enum {
	TRACE_PACKET = 1,                       /* Trace: repeated TracePacket */

	PACKET_CLOCK_SNAPSHOT = 6,              /* TracePacket */
	PACKET_TIMESTAMP = 8,
	PACKET_SEQUENCE_ID = 10,                /* trusted_packet_sequence_id */
	PACKET_TRACK_EVENT = 11,
	PACKET_INTERNED_DATA = 12,
	PACKET_SEQUENCE_FLAGS = 13,
	PACKET_COMPRESSED = 50,                 /* compressed_packets: deflate (zlib) */
	PACKET_CLOCK_ID = 58,                   /* timestamp_clock_id */
	PACKET_DEFAULTS = 59,                   /* trace_packet_defaults */
	PACKET_TRACK_DESCRIPTOR = 60,
	PACKET_PERF_SAMPLE = 66,

	SEQ_INCREMENTAL_STATE_CLEARED = 1,      /* TracePacket.SequenceFlags */

	DEFAULTS_CLOCK_ID = 58,                 /* TracePacketDefaults */
	DEFAULTS_TRACK_EVENT = 11,
	TE_DEFAULTS_TRACK_UUID = 11,            /* TrackEventDefaults */

	SNAPSHOT_CLOCK = 1,                     /* ClockSnapshot */
	SNAPSHOT_PRIMARY_CLOCK = 2,
	CLOCK_ID = 1,                           /* ClockSnapshot.Clock */
	CLOCK_TIMESTAMP = 2,
	CLOCK_INCREMENTAL = 3,
	BUILTIN_REALTIME = 1,                   /* BuiltinClock */
	BUILTIN_BOOTTIME = 6,
	CLOCK_SEQ_DELTA = 64,                   /* a sequence-scoped clock id (64..127) */

	TE_CATEGORY_IIDS = 3,                   /* TrackEvent */
	TE_DEBUG_ANNOTATIONS = 4,
	TE_TYPE = 9,
	TE_NAME_IID = 10,
	TE_TRACK_UUID = 11,
	TE_NAME = 23,
	TE_COUNTER_VALUE = 30,
	TE_DOUBLE_COUNTER_VALUE = 44,
	TE_FLOW_IDS = 47,
	TE_TERMINATING_FLOW_IDS = 48,
	TYPE_SLICE_BEGIN = 1,                   /* TrackEvent.Type */
	TYPE_SLICE_END = 2,
	TYPE_INSTANT = 3,
	TYPE_COUNTER = 4,

	DA_NAME_IID = 1,                        /* DebugAnnotation */
	DA_BOOL = 2,
	DA_UINT = 3,
	DA_INT = 4,
	DA_DOUBLE = 5,
	DA_STRING = 6,
	DA_POINTER = 7,
	DA_NAME = 10,
	DA_DICT_ENTRIES = 11,
	DA_ARRAY_VALUES = 12,
	DA_STRING_IID = 17,

	INTERNED_CATEGORIES = 1,                /* InternedData */
	INTERNED_EVENT_NAMES = 2,
	INTERNED_ANNOTATION_NAMES = 3,
	INTERNED_FUNCTION_NAMES = 5,
	INTERNED_FRAMES = 6,
	INTERNED_CALLSTACKS = 7,
	INTERNED_MAPPING_PATHS = 17,
	INTERNED_MAPPINGS = 19,
	INTERNED_STRING_VALUES = 29,            /* debug_annotation_string_values */
	INTERNED_IID = 1,                       /* EventCategory, EventName, DebugAnnotationName, */
	INTERNED_NAME = 2,                      /* InternedString: iid and name (str) */

	FRAME_IID = 1,                          /* Frame */
	FRAME_FUNCTION_NAME_ID = 2,
	FRAME_MAPPING_ID = 3,
	FRAME_REL_PC = 4,
	CALLSTACK_IID = 1,                      /* Callstack */
	CALLSTACK_FRAME_IDS = 2,                /* bottom (outermost) frame first */
	MAPPING_IID = 1,                        /* Mapping */
	MAPPING_PATH_STRING_IDS = 7,

	PERF_CPU = 1,                           /* PerfSample */
	PERF_PID = 2,
	PERF_TID = 3,
	PERF_CALLSTACK_IID = 4,
	PERF_CPU_MODE = 5,
	CPU_MODE_KERNEL = 1,                    /* Profiling.CpuMode */
	CPU_MODE_USER = 2,

	TD_UUID = 1,                            /* TrackDescriptor */
	TD_NAME = 2,
	TD_PROCESS = 3,
	TD_THREAD = 4,
	TD_PARENT_UUID = 5,
	TD_COUNTER = 8,
	TD_SIBLING_ORDER_RANK = 12,
	TD_PROCESS_ORDERING = 19,
	TD_THREAD_ORDERING = 20,
	PROCESS_ORDERING_EXPLICIT = 1,          /* TrackDescriptor: ProcessOrdering, */
	THREAD_ORDERING_EXPLICIT = 1,           /* ThreadOrdering */

	PROCESS_PID = 1,                        /* ProcessDescriptor */
	PROCESS_CMDLINE = 2,
	PROCESS_NAME = 6,
	THREAD_PID = 1,                         /* ThreadDescriptor */
	THREAD_TID = 2,
	THREAD_NAME = 5,
};

#endif
