#!/usr/bin/env python3
"""Unit tests of the symbol check (batch/symbols.py): student objects that
take over a grader's, libc's or cudart's names, or weakly reach a
grader-side function, are flagged; honest code and the symbols nvcc
generates are not; link lines resolve. Builds tiny C and CUDA files with
gcc and nvcc (the nvcc tests skip without it). ctest: batch.symbols."""
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
GRADER = os.path.join(HERE, "..", "..")
ROOT = os.path.join(GRADER, "..")
sys.path.insert(0, GRADER)
from batch import object_review, symbols  # noqa: E402


def find_nvcc():
    for c in (os.environ.get("CUDACXX"), shutil.which("nvcc"), "/usr/local/cuda/bin/nvcc"):
        if c and os.path.isfile(c) and os.access(c, os.X_OK):
            return c
    return None


NVCC = find_nvcc()
GCC = shutil.which("gcc") or shutil.which("cc")


def cudart_library():
    """The CUDA runtime a lab links (static archive or shared library)."""
    roots = []
    if NVCC:
        roots.append(os.path.dirname(os.path.dirname(os.path.realpath(NVCC))))
    roots += ["/usr/local/cuda"]
    for r in roots:
        for sub in ("lib64", "lib", "targets/x86_64-linux/lib"):
            for name in ("libcudart_static.a", "libcudart.so"):
                p = os.path.join(r, sub, name)
                if os.path.isfile(p):
                    return p
    return None


class Scratch(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="symbols_test_")
        self.addCleanup(shutil.rmtree, self.dir, True)

    def path(self, name):
        return os.path.join(self.dir, name)

    def write(self, name, text):
        with open(self.path(name), "w") as f:
            f.write(text)
        return self.path(name)

    def cc(self, name, text, *flags, compiler=None):
        src = self.write(name, text)
        obj = self.path(os.path.splitext(name)[0] + ".o")
        subprocess.check_call([compiler or GCC, "-c", "-O2"] + list(flags) + [src, "-o", obj])
        return obj

    def nvcc(self, name, text, *flags):
        if not NVCC:
            self.skipTest("nvcc not found (set CUDACXX): the CUDA parts of the symbol check "
                          "are not tested")
        return self.cc(name, text, "-std=c++17", *flags, compiler=NVCC)

    def archive(self, name, *objects):
        lib = self.path(name)
        subprocess.check_call(["ar", "rcs", lib] + list(objects))
        return lib

    def grader_library(self):
        """A stand-in for the harness: reporting functions, a cuBLAS-style
        wrapper, and a grader object that calls the student's lab entry."""
        report = self.cc("harness_report.c", """
            #include <stdio.h>
            void grader_metric(const char *name, double value) { printf("%s %g\\n", name, value); }
            int grader_passed(int test) { return test >= 0; }
            """)
        wrapper = self.cc("lab7_cublas.c", """
            int lab7_cublas_sgemm(int m, int n, int k) { return m + n + k; }
            """)
        return self.archive("liblab_grader_harness.a", report, wrapper)

    def grader_object(self):
        return self.cc("lab1_grader.c", """
            int lab_vector_add(const float *a, const float *b, float *c, int n);
            int grader_passed(int test);
            int main(void) { float x = 0; return grader_passed(lab_vector_add(&x, &x, &x, 1)); }
            """)


class DefinedAndUndefinedTest(Scratch):
    def test_types(self):
        obj = self.cc("kinds.c", """
            extern int used_elsewhere(void);
            extern void maybe(void) __attribute__((weak));
            __attribute__((weak)) int soft(void) { return 1; }
            static int hidden(void) { return 2; }
            int counter = 3;
            int visible(void) { if (maybe) maybe(); return used_elsewhere() + hidden() + counter; }
            """)
        defined, undefined, weak_refs, weak_defs = symbols.defined_and_undefined(obj)
        self.assertEqual(defined.get("visible"), "T")
        self.assertEqual(defined.get("counter"), "D")
        self.assertEqual(defined.get("soft"), "W")
        self.assertNotIn("hidden", defined)
        self.assertIn("used_elsewhere", undefined)
        self.assertEqual(weak_refs, {"maybe"})
        self.assertEqual(weak_defs, {"soft"})

    def test_archive_and_shared_library(self):
        lib = self.grader_library()
        defined, _, _, _ = symbols.defined_and_undefined(lib)
        self.assertIn("grader_metric", defined)
        self.assertIn("lab7_cublas_sgemm", defined)
        libc = [p for p in symbols.link_inputs_from_argv([GCC], self.dir)
                if os.path.basename(p).startswith("libc.so")]
        self.assertTrue(libc, "libc not found by the link line resolver")
        defined, _, _, _ = symbols.defined_and_undefined(libc[0])
        self.assertIn("malloc", defined)          # version suffix dropped
        self.assertFalse(any("@" in n for n in defined))


class CollisionsTest(Scratch):
    def kinds(self, found):
        return {(f["symbol"], f["kind"], f["owner"], f["object"]) for f in found}

    def test_redefines_grader_archive_function(self):
        lib = self.grader_library()
        student = self.cc("indexing.c", """
            void grader_metric(const char *name, double value) { (void)name; (void)value; }
            int lab_vector_add(const float *a, const float *b, float *c, int n) { return n; }
            """)
        found = symbols.collisions([student], [self.grader_object(), lib])
        self.assertEqual(self.kinds(found),
                         {("grader_metric", "redefines", "liblab_grader_harness.a", "indexing.o")})
        self.assertEqual(found[0]["member"], "harness_report.o")
        self.assertIn("liblab_grader_harness.a", symbols.describe(found[0]))

    def test_weak_definition_over_grader_function(self):
        lib = self.grader_library()
        student = self.cc("indexing.c", """
            __attribute__((weak)) int grader_passed(int test) { (void)test; return 1; }
            """)
        found = symbols.collisions([student], [lib])
        self.assertEqual(self.kinds(found), {("grader_passed", "weak redefinition",
                                              "liblab_grader_harness.a", "indexing.o")})

    def test_redefines_libc(self):
        student = self.cc("greedy.c", """
            #include <stddef.h>
            static char pool[1 << 16];
            void *malloc(size_t n) { (void)n; return pool; }
            int printf(const char *fmt, ...) { (void)fmt; return 0; }
            """, "-fno-builtin")
        inputs = symbols.link_inputs_from_argv([GCC, "greedy.o", "-o", "grader"], self.dir,
                                               exclude=["greedy.o"])
        found = symbols.collisions([student], inputs)
        by_name = {f["symbol"]: f for f in found}
        self.assertEqual(set(by_name), {"malloc", "printf"})
        self.assertTrue(by_name["malloc"]["owner"].startswith("libc"), by_name["malloc"])
        self.assertEqual(by_name["printf"]["kind"], "redefines")

    def test_redefines_cudart(self):
        cudart = cudart_library()
        if not cudart:
            self.skipTest("no CUDA runtime library found")
        student = self.cc("sneaky.c", """
            #include <stddef.h>
            int cudaMalloc(void **p, size_t n) { (void)n; *p = 0; return 0; }
            """)
        found = symbols.collisions([student], [cudart])
        self.assertEqual(self.kinds(found), {("cudaMalloc", "redefines",
                                              os.path.basename(cudart), "sneaky.o")})

    def test_weak_reference_to_grader_function(self):
        lib = self.grader_library()
        student = self.cc("warp_tiling.c", """
            #include <pthread.h>
            extern int lab7_cublas_sgemm(int m, int n, int k) __attribute__((weak));
            extern int pthread_mutex_trylock(pthread_mutex_t *) __attribute__((weak));
            extern void nobody_defines_this(void) __attribute__((weak));
            int lab7_sgemm(int m, int n, int k) {
                if (nobody_defines_this) nobody_defines_this();
                if (pthread_mutex_trylock) pthread_mutex_trylock(0);
                return lab7_cublas_sgemm ? lab7_cublas_sgemm(m, n, k) : 0;
            }
            """)
        inputs = symbols.link_inputs_from_argv([GCC, lib], self.dir)
        found = symbols.collisions([student], inputs)
        # libc's pthread_mutex_trylock: a weak reference that a plain call
        # could make as well; nobody_defines_this: nothing to reach.
        self.assertEqual(self.kinds(found), {("lab7_cublas_sgemm", "weak reference",
                                              "liblab_grader_harness.a", "warp_tiling.o")})
        self.assertIn("weak reference", symbols.describe(found[0]))

    def test_weak_reference_satisfied_by_student_is_fine(self):
        lib = self.grader_library()
        first = self.cc("a.c", """
            extern int shared_helper(void) __attribute__((weak));
            int lab_a(void) { return shared_helper ? shared_helper() : 0; }
            """)
        second = self.cc("b.c", "int shared_helper(void) { return 4; }\n")
        self.assertEqual(symbols.collisions([first, second], [lib]), [])

    def test_honest_student_not_flagged(self):
        lib = self.grader_library()
        student = self.cc("indexing.c", """
            #include <stdio.h>
            #include <stdlib.h>
            int blocks_for(int n, int block) { return (n + block - 1) / block; }
            float *scratch_buffer(int n) { return malloc(sizeof(float) * n); }
            int lab_vector_add(const float *a, const float *b, float *c, int n) {
                float *s = scratch_buffer(n);
                for (int i = 0; i < n; i++) c[i] = a[i] + b[i];
                printf("%d\\n", blocks_for(n, 256));
                free(s);
                return 0;
            }
            """)
        inputs = symbols.link_inputs_from_argv([GCC, self.grader_object(), lib], self.dir)
        self.assertEqual(symbols.collisions([student], inputs), [])

    def test_student_archive_on_the_link_line_is_skipped(self):
        lib = self.grader_library()
        student = self.cc("indexing.c", "int lab_vector_add(void) { return 0; }\n")
        labs = self.archive("liblab1_labs.a", student)
        inputs = symbols.link_inputs_from_argv([GCC, "liblab1_labs.a", lib], self.dir)
        self.assertEqual(symbols.collisions([labs], inputs), [])
        self.assertEqual(symbols.collisions([student], inputs)[0]["owner"], "liblab1_labs.a")
        inputs = symbols.link_inputs_from_argv([GCC, "liblab1_labs.a", lib], self.dir,
                                               exclude=["liblab1_labs.a"])
        self.assertEqual(symbols.collisions([student], inputs), [])

    def test_cxx_names_demangled(self):
        gxx = shutil.which("g++")
        if not gxx:
            self.skipTest("no g++")
        grader = self.cc("check.cpp", "int tolerance(double x) { return x < 1e-3; }\n",
                         compiler=gxx)
        student = self.cc("student.cpp", "int tolerance(double x) { return 1; }\n",
                          compiler=gxx)
        found = symbols.collisions([student], [grader])
        self.assertEqual(len(found), 1)
        self.assertEqual(found[0]["symbol"], "_Z9toleranced")
        self.assertEqual(found[0]["demangled"], "tolerance(double)")

    def test_other_inputs_read_once(self):
        lib = self.grader_library()
        grader = self.grader_object()
        calls = []
        real = symbols._run_nm

        def counting(path, nm, dynamic):
            calls.append(path)
            return real(path, nm, dynamic)
        symbols._run_nm = counting
        self.addCleanup(setattr, symbols, "_run_nm", real)
        for i in range(3):
            student = self.cc("student%d.c" % i, "int grader_passed(int t) { return 1; }\n")
            self.assertEqual(len(symbols.collisions([student], [grader, lib])), 1)
        self.assertEqual(calls.count(lib), 1)
        self.assertEqual(calls.count(grader), 1)
        self.assertEqual(len(calls), 5)      # the three students, each once


STUDENT_CU = r"""
#include <cstdio>
#include <vector>
__global__ void scale_kernel(float *x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= 2.0f;
}
int blocks_for(int n) { return (n + 255) / 256; }
extern "C" int lab_scale(float *x, int n) {
    std::vector<int> sizes(1, n);
    scale_kernel<<<dim3(blocks_for(sizes[0])), dim3(256)>>>(x, n);
    return cudaGetLastError() == cudaSuccess ? 0 : 1;
}
"""

GRADER_CU = r"""
#include <cstdio>
#include <vector>
__global__ void copy_kernel(const float *in, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i];
}
extern "C" int lab_scale(float *x, int n);
extern "C" int baseline_copy(const float *in, float *out, int n) {
    std::vector<int> sizes(1, n);
    copy_kernel<<<dim3((sizes[0] + 255) / 256), dim3(256)>>>(in, out, n);
    return cudaGetLastError() == cudaSuccess ? 0 : 1;
}
"""


class NvccTest(Scratch):
    def check_pair(self, *flags):
        student = self.nvcc("scale.cu", STUDENT_CU, *flags)
        grader = self.nvcc("copy_baseline.cu", GRADER_CU, *flags)
        lib = self.archive("liblab_grader_baselines.a", grader)
        found = symbols.collisions([student], [grader, lib])
        self.assertEqual(found, [], [symbols.describe(f) for f in found])
        # The generated names are there; they just do not meet.
        defined, _, _, _ = symbols.defined_and_undefined(student)
        self.assertTrue(any("device_stub" in n for n in defined), sorted(defined))
        return student, lib

    def test_generated_symbols_not_flagged(self):
        self.check_pair()

    def test_generated_symbols_not_flagged_rdc(self):
        student, lib = self.check_pair("-rdc=true")
        defined, _, _, _ = symbols.defined_and_undefined(student)
        self.assertTrue(any(n.startswith("__fatbinwrap_") for n in defined), sorted(defined))

    def test_nvcc_collision_still_flagged(self):
        grader = self.nvcc("copy_baseline.cu", GRADER_CU)
        lib = self.archive("liblab_grader_baselines.a", grader)
        student = self.nvcc("hostile.cu", STUDENT_CU + r"""
extern "C" int baseline_copy(const float *in, float *out, int n) { return 0; }
__global__ void copy_kernel(const float *in, float *out, int n) {}
""")
        found = symbols.collisions([student], [lib])
        names = {f["demangled"]: f["kind"] for f in found}
        self.assertEqual(names.get("baseline_copy"), "redefines")
        self.assertEqual(names.get("copy_kernel(float const*, float*, int)"), "redefines")
        self.assertTrue(all(f["owner"] == "liblab_grader_baselines.a" for f in found))


class LinkLineTest(Scratch):
    def test_synthetic_line(self):
        os.makedirs(self.path("lib"))
        os.makedirs(self.path("deps"))
        a = self.cc("foo.c", "int foo(void) { return 1; }\n")
        self.archive(os.path.join("lib", "libfoo.a"), a)
        shared_src = self.write("bar.c", "int bar(void) { return 2; }\n")
        subprocess.check_call([GCC, "-shared", "-fPIC", shared_src,
                               "-o", self.path(os.path.join("deps", "libbar.so"))])
        self.archive(os.path.join("deps", "libbar.a"), a)
        self.cc("main.c", "int foo(void); int bar(void); "
                          "int main(void) { return foo() + bar(); }\n")
        with open(self.path("objects1"), "w") as f:
            f.write("main.o\n")
        missing = []
        argv = ["/usr/bin/g++", "-O2", "-Wl,-rpath,/nowhere", "@objects1", "-o", "grader",
                "-Llib", "-L", "deps", "-lfoo", "-lbar", "-Wl,-Bstatic", "-lbar",
                "-Wl,-Bdynamic", "-lnot_a_library_anywhere", "-Xlinker", "-rpath",
                "-Xlinker", "/also/nowhere", "-lm"]
        inputs = symbols.link_inputs_from_argv(argv, self.dir, missing=missing)
        names = [os.path.relpath(p, self.dir) if p.startswith(self.dir) else os.path.basename(p)
                 for p in inputs]
        self.assertEqual(names[:4], ["main.o", os.path.join("lib", "libfoo.a"),
                                     os.path.join("deps", "libbar.so"),
                                     os.path.join("deps", "libbar.a")])
        self.assertEqual(missing, ["-lnot_a_library_anywhere"])
        rest = names[4:]
        # libm.so and libc.so are ld scripts: the files they name are read.
        self.assertTrue(any(n.startswith("libm.so.") or n == "libm.a" for n in rest), rest)
        self.assertTrue(any(n.startswith("libc.so.") for n in rest), rest)
        self.assertTrue(any(n.startswith("libstdc++") for n in rest), rest)
        self.assertNotIn("grader", names)
        self.assertEqual(len(inputs), len(set(map(os.path.realpath, inputs))))
        plain = symbols.link_inputs_from_argv(argv, self.dir, implicit=False)
        self.assertFalse(any(os.path.basename(p).startswith("libstdc++") for p in plain))

    def test_nvcc_line_adds_the_cuda_runtime(self):
        obj = self.nvcc("scale.cu", STUDENT_CU)
        names = [os.path.basename(p) for p in
                 symbols.link_inputs_from_argv([NVCC, obj, "-o", "scale"], self.dir)]
        self.assertIn("libcudart_static.a", names)
        self.assertIn("libcudadevrt.a", names)
        shared = [os.path.basename(p) for p in
                  symbols.link_inputs_from_argv([NVCC, obj, "-cudart", "shared", "-o", "scale"],
                                                self.dir)]
        self.assertNotIn("libcudart_static.a", shared)
        self.assertTrue(any(n.startswith("libcudart.so") for n in shared), shared)
        self.assertFalse(any(n == "shared" for n in shared))

    def test_real_lines(self):
        """Every lab grader's link.txt of a configured build, if one exists
        (CUDA_LABS_BUILD, or build/ at the top): all inputs resolve."""
        build = os.environ.get("CUDA_LABS_BUILD") or os.path.join(ROOT, "build")
        lines = []
        for folder, _, files in os.walk(build):
            name = os.path.basename(folder)
            if name.endswith("_check.dir") and "link.txt" in files:
                lines.append(os.path.join(folder, "link.txt"))
        if not lines:
            self.skipTest("no configured build with lab graders at %s" % build)
        checked = 0
        for txt in lines:
            cwd = os.path.dirname(os.path.dirname(os.path.dirname(txt)))
            with open(txt) as f:
                argv = shlex.split(f.readline())
            if not os.path.exists(os.path.join(cwd, argv[argv.index("-o") + 1])):
                continue                         # not built
            missing = []
            labs = [a for a in symbols._expand_response_files(argv, cwd) if re.match(r"^liblab\d+_labs\.a$", os.path.basename(a))]
            inputs = symbols.link_inputs_from_argv(argv, cwd, exclude=labs, missing=missing)
            self.assertEqual(missing, [], txt)
            names = [os.path.basename(p) for p in inputs]
            # A runner links the harness's runner library, never its checks
            # library (grader/CMakeLists.txt: the runner holds no test-program code).
            self.assertIn("liblab_grader_runner.a", names, txt)
            self.assertNotIn("liblab_grader_checks.a", names, txt)
            self.assertTrue(any(n.startswith("libc.so") for n in names), txt)
            # The reference solution and the skeleton collide with nothing.
            for lib in labs + [l.replace("_labs.a", "_solutions.a") for l in labs]:
                path = os.path.join(cwd, lib)
                if os.path.isfile(path):
                    found = symbols.collisions([path], inputs)
                    self.assertEqual(found, [], (txt, lib, [symbols.describe(f) for f in found]))
                    checked += 1
        if not checked:
            self.skipTest("no lab grader built under %s" % build)


class ObjectReviewTest(Scratch):
    """batch/object_review.py: what compiled student code reaches for."""
    def test_every_reference_and_skeleton_reaches_for_nothing(self):
        """The build's solution and skeleton libraries of every lab (what a
        student starts from, and a complete answer): no finding, so the
        allowlist covers every call the references make."""
        build = os.environ.get("CUDA_LABS_BUILD") or os.path.join(ROOT, "build")
        found = {}
        for folder, _, files in os.walk(build):
            for name in files:
                if re.match(r"^liblab\d+_(labs|solutions)\.a$", name) or \
                        name == object_review.CONTRACT_LIBRARY:
                    found.setdefault(name, os.path.join(folder, name))
        if object_review.CONTRACT_LIBRARY not in found or len(found) < 2:
            self.skipTest("no built lab libraries under %s" % build)
        contract = object_review.contract_names([found[object_review.CONTRACT_LIBRARY]])
        for name, path in sorted(found.items()):
            if name != object_review.CONTRACT_LIBRARY:
                self.assertEqual(object_review.review([path], contract), [], name)

    @unittest.skipUnless(NVCC, "needs nvcc")
    def test_each_way_around_is_named(self):
        honest = self.nvcc("honest.cu", "__global__ void k(float *x) { x[0] = 1; }\n"
                           "extern \"C\" int run(float *x) { k<<<1, 1>>>(x); "
                           "return (int)cudaGetLastError(); }\n")
        self.assertEqual(object_review.review([honest], set()), [])
        sneaky = self.nvcc("sneaky.cu", "#include <sys/syscall.h>\n#include <unistd.h>\n"
                           "#include <sys/uio.h>\n#include <cublas_v2.h>\n"
                           "static long open_it() { return syscall(SYS_getppid); }\n"
                           "static long opened = open_it();\n"
                           "extern \"C\" long peek(int pid, void *p) { struct iovec v = {p, 1};\n"
                           "  return process_vm_readv(pid, &v, 1, &v, 1, 0); }\n"
                           "extern \"C\" long raw() { long r; asm volatile(\"syscall\" : \"=a\"(r)"
                           " : \"a\"(39L) : \"rcx\", \"r11\", \"memory\"); return r; }\n"
                           "extern \"C\" int gemm() { cublasHandle_t h; return cublasCreate(&h); }\n")
        found = "\n".join(object_review.review([sneaky], set()))
        for text in ("syscall (raw system calls)", "process_vm_readv (another process's memory)",
                     "cublasCreate_v2 (cuBLAS)", "a raw system call instruction (syscall)",
                     "1 static constructor(s)"):
            self.assertIn(text, found)


    @unittest.skipUnless(NVCC, "needs nvcc")
    def test_renamed_copy_of_a_kernel_is_named(self):
        """Two stages' kernels with one body (a renamed copy) are named; two
        kernels that differ in one constant are not."""
        body = "(const float *x, float *y, int n) { int i = blockIdx.x * blockDim.x + " \
               "threadIdx.x; float s = 0; for (int k = 0; k < n; ++k) s += x[(i + k) %% n]; " \
               "if (i < n) y[i] = s * %s; }\n"
        copied = self.nvcc("copied.cu", "__global__ void stage_a" + body % "2.f" +
                           "__global__ void stage_b" + body % "2.f")
        found = "\n".join(object_review.review([copied], set()))
        self.assertIn("kernels with the same machine code: _Z7stage_aPKfPfi, _Z7stage_bPKfPfi",
                      found)
        differing = self.nvcc("differing.cu", "__global__ void stage_a" + body % "2.f" +
                              "__global__ void stage_b" + body % "3.f")
        self.assertEqual(object_review.review([differing], set()), [])


class CommandLineTest(Scratch):
    SCRIPT = os.path.join(GRADER, "batch", "symbols.py")

    def run_cli(self, *args):
        return subprocess.run([sys.executable, self.SCRIPT] + list(args), cwd=self.dir,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              universal_newlines=True)

    def test_exit_codes(self):
        lib = self.grader_library()
        grader = self.grader_object()
        honest = self.cc("honest.c", "int lab_vector_add(void) { return 0; }\n")
        hostile = self.cc("hostile.c", "int grader_passed(int t) { return 1; }\n")
        link = ["--", GCC, "lab1_grader.o", "liblab1_labs.a", "liblab_grader_harness.a",
                "-o", "grader"]
        res = self.run_cli("--student", honest, *link)
        self.assertEqual(res.returncode, 0, res.stdout + res.stderr)
        self.assertIn("liblab1_labs.a", res.stderr)          # warned: not found
        res = self.run_cli("--exclude", "liblab1_labs.a", "--student", hostile, *link)
        self.assertEqual(res.returncode, 1, res.stdout + res.stderr)
        self.assertIn("grader_passed", res.stdout)
        self.assertIn("liblab_grader_harness.a", res.stdout)
        self.assertEqual(len(res.stdout.splitlines()), 1)
        self.assertEqual(self.run_cli("--student", hostile).returncode, 2)
        self.assertEqual(self.run_cli("--", GCC, lib).returncode, 2)
        self.assertEqual(self.run_cli("--student", "nothere.o", "--", GCC, lib).returncode, 2)
        self.assertEqual(self.run_cli("--bogus", "--student", hostile, "--", GCC).returncode, 2)
        self.assertEqual(self.run_cli("--student", self.write("text.o", "hello\n"),
                                      "--", GCC, lib).returncode, 2)
        self.assertTrue(grader)

    def test_module_form(self):
        hostile = self.cc("hostile.c", "int grader_metric(void) { return 1; }\n")
        lib = self.grader_library()
        res = subprocess.run([sys.executable, "-m", "batch.symbols", "--cwd", self.dir,
                              "--student", hostile, "--", GCC, os.path.basename(lib)],
                             cwd=GRADER, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             universal_newlines=True)
        self.assertEqual(res.returncode, 1, res.stdout + res.stderr)
        self.assertIn("redefines grader_metric", res.stdout)


if __name__ == "__main__":
    if not NVCC:
        print("note: nvcc not found (set CUDACXX); the nvcc tests will be skipped",
              file=sys.stderr)
    unittest.main(verbosity=2)
