#!/bin/sh
# The stand-in libnrt.so.1 has the real soname and exports the Neuron runtime's names and
# nothing else: every function of the fact sheet's core API that the stand-in implements.
. "$top_srcdir/tests/func/lib.sh"
LIB="$STANDIN_LIBDIR/libnrt.so.1"
[ -e "$LIB" ] || skip_all "the stand-in libnrt.so.1 was not built"
plan 3
readelf -d "$LIB" >"$T/dynamic" 2>&1
check "the soname is libnrt.so.1" grep -q 'Library soname: \[libnrt.so.1\]' "$T/dynamic"
nm -D --defined-only "$LIB" | awk '$2 == "T" { print $3 }' | sort >"$T/exported"
check "every export is an nrt_ function" sh -c "! grep -v '^nrt_' '$T/exported'"
missing=""
for f in nrt_init nrt_close nrt_get_version nrt_get_total_nc_count nrt_get_total_vnc_count \
	nrt_get_visible_nc_count nrt_get_visible_vnc_count nrt_get_instance_info nrt_load \
	nrt_load_collectives nrt_unload nrt_get_model_nc_count nrt_get_model_vnc_count \
	nrt_get_model_info nrt_get_model_tensor_info nrt_free_model_tensor_info nrt_execute \
	nrt_execute_repeat nrt_allocate_tensor_set nrt_destroy_tensor_set nrt_add_tensor_to_tensor_set \
	nrt_get_tensor_from_tensor_set nrt_tensor_allocate nrt_tensor_free nrt_tensor_read \
	nrt_tensor_write nrt_tensor_copy nrt_tensor_memset nrt_tensor_get_size nrt_tensor_get_va \
	nrt_tensor_allocate_empty nrt_tensor_attach_buffer nrt_tensor_allocate_slice \
	nrt_get_status_as_str nrt_barrier nrt_all_gather; do
	grep -qx "$f" "$T/exported" || missing="$missing $f"
done
check "the API the tests use is exported ($(wc -l <"$T/exported") functions)${missing:+; missing:$missing}" \
	test -z "$missing"
finish
