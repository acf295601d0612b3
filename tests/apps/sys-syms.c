/* sys-syms.c — functions at addresses `nm` gives, for the symbolization tests of the system
 * profile (func/t-sys-analyze.sh): one with a C name and one with a C++ mangled name (given by
 * an asm label, so that no C++ compiler is needed: tprof::test::Worker::compute(int)). */
__attribute__((noinline, used)) int tprof_sys_c_function(int x);
__attribute__((noinline, used)) int tprof_sys_cpp_method(int x)
	__asm__("_ZN5tprof4test6Worker7computeEi");

int tprof_sys_c_function(int x)
{
	return x * 3 + 1;
}

int tprof_sys_cpp_method(int x)
{
	return tprof_sys_c_function(x) * 5 + 2;
}

int main(int argc, char **argv)
{
	(void)argv;
	return tprof_sys_cpp_method(argc) > 0 ? 0 : 1;
}
