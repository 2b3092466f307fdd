#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tests/fatbin/build.sh [OUTDIR]: build the small CUDA binaries the fat-binary reader is
# tested on (parsers/image/image_fatbin.h), with the real nvcc, into OUTDIR (default: this
# directory, where the checked-in copies live, so that machines without nvcc test them too).
# The arch flags given to nvcc below are the oracle the tests compare with. The nvcc
# version used is written to OUTDIR/NVCC_VERSION. Exit 77 when nvcc is missing.
# Two runs give byte-identical files, except rdc.o and x32.o: relocatable device code
# carries a random module id in its symbol names (not in its fat binary).
#   sm80.so        -gencode arch=compute_80,code=sm_80                 SASS sm_80 only
#   sm80_ptx.so    code=[sm_80,compute_80]                             + PTX 8.0 (compressed:
#                                                                        nvcc's default for PTX)
#   sm80_plain.so  the same, -Xfatbin=-compress=false                  nothing compressed
#   sm90a.so       arch=compute_90a,code=sm_90a                        an arch-specific target
#   multi_z.so     sm_75 sm_86 sm_90+compute_90 sm_100 compute_120,    every entry compressed
#                  -Xfatbin -compress-all
#   rdc.o          -rdc=true, sm_80                                    __nv_relfatbin
#   app            an executable, sm_86                                no .so name
#   x32.o          rdc.o as ELF32 (objcopy -O elf32-x86-64)
#   le64.o le32.o be64.o  a raw fatbin (nvcc -fatbin, sm_80 + compute_80) wrapped by
#                  objcopy -I binary as section .nv_fatbin of an ELF64/ELF32 little-endian
#                  and an ELF64 big-endian object (the reader rejects big-endian)
#   plain.so       a C shared object without device code (cc)
#   libk.a         GNU ar (deterministic) of k.o (nvcc -c, sm_80) and a C object whose
#                  long name needs the `//` table                      sm_80 in one member
#   libmix.a       ar of k75.o (sm_75) and k2.o (PTX compute_90 only) and the C object
#                                                                      sm_75 + compute_90
#   librdc.a       nvcc -lib -rdc=true, sm_90                          nvcc's own library
#   libbsd.a       llvm-ar --format=bsd of k75.o and the C object      BSD `#1/N` names
#   (the libraries differ between runs: nvcc puts a random module id in each object)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=$(realpath -m "${1:-$here}")
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
[ -x "$nvcc" ] || { echo "skip: nvcc not found (set NVCC or install the CUDA toolkit)"; exit 77; }
for t in objcopy cc; do command -v $t >/dev/null || { echo "skip: $t missing"; exit 77; }; done
# A fixed build directory: the objects name their source path.
work=/tmp/gpulint-fatbin-build
rm -rf "$work"
mkdir -p "$work" "$out"
trap 'rm -rf "$work"' EXIT
cd "$work"
cat > k.cu <<'CU'
__global__ void k(float *x) { x[threadIdx.x] *= 2.0f; }
void launch(float *x) { k<<<1, 32>>>(x); }
CU
cat > main.cu <<'CU'
__global__ void k(float *x) { x[threadIdx.x] *= 2.0f; }
int main() { k<<<1, 32>>>(0); return 0; }
CU
echo 'int plain(int x) { return x + 1; }' > plain.c
so() { local o=$1; shift; "$nvcc" -shared -Xcompiler -fPIC -cudart shared "$@" -o "$o" k.cu; }
so sm80.so -gencode arch=compute_80,code=sm_80
so sm80_ptx.so -gencode 'arch=compute_80,code=[sm_80,compute_80]'
so sm80_plain.so -gencode 'arch=compute_80,code=[sm_80,compute_80]' -Xfatbin=-compress=false
so sm90a.so -gencode arch=compute_90a,code=sm_90a
so multi_z.so -gencode arch=compute_75,code=sm_75 -gencode arch=compute_86,code=sm_86 \
   -gencode 'arch=compute_90,code=[sm_90,compute_90]' -gencode arch=compute_100,code=sm_100 \
   -gencode arch=compute_120,code=compute_120 -Xfatbin -compress-all
"$nvcc" -c -rdc=true -Xcompiler -fPIC -gencode arch=compute_80,code=sm_80 -o rdc.o k.cu
"$nvcc" -cudart shared -gencode arch=compute_86,code=sm_86 -o app main.cu
objcopy -O elf32-x86-64 rdc.o x32.o
"$nvcc" -fatbin -gencode 'arch=compute_80,code=[sm_80,compute_80]' -o k.fatbin k.cu
sect=.nv_fatbin=.nv_fatbin,alloc,load,readonly,data,contents
for f in le64:elf64-little le32:elf32-little be64:elf64-big; do
  objcopy -I binary -O "${f#*:}" --rename-section .data="${sect#*=}" k.fatbin "${f%%:*}.o"
done
cc -shared -fPIC -O2 -o plain.so plain.c
cat > k2.cu <<'CU'
__global__ void k2(float *x) { x[threadIdx.x] += 1.0f; }
void launch2(float *x) { k2<<<1, 32>>>(x); }
CU
"$nvcc" -c -Xcompiler -fPIC -gencode arch=compute_80,code=sm_80 -o k.o k.cu
"$nvcc" -c -Xcompiler -fPIC -gencode arch=compute_75,code=sm_75 -o k75.o k.cu
"$nvcc" -c -Xcompiler -fPIC -gencode arch=compute_90,code=compute_90 -o k2.o k2.cu
cc -c -fPIC -O2 -o a_plain_object_with_a_long_name.o plain.c
ar rcsD libk.a k.o a_plain_object_with_a_long_name.o
ar rcsD libmix.a k75.o k2.o a_plain_object_with_a_long_name.o
"$nvcc" -lib -rdc=true -Xcompiler -fPIC -gencode arch=compute_90,code=sm_90 -o librdc.a k.cu
llvm_ar=$(command -v llvm-ar || command -v llvm-ar-14 || true)
bsd=libbsd.a
if [ -n "$llvm_ar" ]; then
  "$llvm_ar" rcsD --format=bsd libbsd.a k75.o a_plain_object_with_a_long_name.o
else
  echo "note: llvm-ar missing: libbsd.a not built"
  bsd=
fi
strip --strip-unneeded sm80.so sm80_ptx.so sm80_plain.so sm90a.so multi_z.so app plain.so
for f in sm80.so sm80_ptx.so sm80_plain.so sm90a.so multi_z.so rdc.o app x32.o le64.o \
         le32.o be64.o plain.so libk.a libmix.a librdc.a $bsd; do
  cp "$f" "$out/$f"
done
chmod 0644 "$out"/*.o "$out"/*.so "$out"/*.a
chmod 0755 "$out/app"
"$nvcc" --version | tail -2 > "$out/NVCC_VERSION"
echo "built into $out with $(tail -1 "$out/NVCC_VERSION")"
