#!/bin/sh
# gen.sh: regenerates the PTX of the batch executor's differential test
# kernels (internal/exec/batch_diff_test.go) from src/*.cu. The .ptx files
# are committed, so the tests need no clang. Run from anywhere:
#   internal/exec/testdata/batch/gen.sh
set -eu
cd "$(dirname "$0")"
CLANG=${CLANG:-clang-22}
for src in src/*.cu; do
	name=$(basename "$src" .cu)
	"$CLANG" -x cuda --cuda-device-only -nocudainc -nocudalib -std=c++20 -O3 \
		--cuda-gpu-arch=sm_80 --cuda-feature=+ptx70 -S -o "$name.ptx" "$src"
done
