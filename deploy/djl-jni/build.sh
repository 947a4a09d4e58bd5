#!/usr/bin/env bash
# Run Expresso's GPU path on a machine whose Python already has a CUDA PyTorch (no libtorch download).
#
# DJL 0.36's JNI (libdjl_torch.so) is compiled for PyTorch 2.7.1; this builds the same JNI source
# against the PyTorch that `python3 -c 'import torch'` finds, puts it beside that PyTorch's libtorch,
# and prints the environment that makes DJL load that libtorch. Measured on an H100 with PyTorch
# 2.11.0+cu130 (docs/results/gpu-h100.md): builds in under a minute on 16 cores.
#
# Needs: cmake, a C++17 compiler, nvcc (CUDA builds), a JDK's include/ (JNI headers), and DJL's
# sources at tag v0.36.0 (git clone -b v0.36.0 https://github.com/deepjavalibrary/djl).
# Usage: deploy/djl-jni/build.sh DJL_SOURCE_DIR [JAVA_HOME]
set -euo pipefail
djl=$(cd "${1:?usage: $0 DJL_SOURCE_DIR [JAVA_HOME]}" && pwd)
java_home=${2:-${JAVA_HOME:-$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")}}
native=$djl/engines/pytorch/pytorch-native
[ -f "$native/CMakeLists.txt" ] || { echo "$djl is not a DJL source tree (no $native/CMakeLists.txt)" >&2; exit 2; }
[ -f "$java_home/include/jni.h" ] || { echo "no JNI headers under $java_home/include (give a JDK's JAVA_HOME)" >&2; exit 2; }
read -r torch_lib torch_cmake cuda < <(python3 -c 'import torch,os
print(os.path.join(os.path.dirname(torch.__file__), "lib"), torch.utils.cmake_prefix_path, torch.version.cuda or "")')

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# the JNI header comes from DJL's Java declarations, as DJL's own build.sh makes it
javac -nowarn -sourcepath "$djl/engines/pytorch/pytorch-engine/src/main/java:$djl/api/src/main/java" \
  -h "$native/build/include" -d "$work/classes" \
  "$djl/engines/pytorch/pytorch-engine/src/main/java/ai/djl/pytorch/jni/PyTorchLibrary.java"
cmake -S "$native" -B "$work/build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$torch_cmake" \
  ${cuda:+-DUSE_CUDA=1} -DJAVA_INCLUDE_PATH="$java_home/include" -DJAVA_INCLUDE_PATH2="$java_home/include/linux" \
  -DJAVA_AWT_INCLUDE_PATH=NotNeeded -DJAVA_AWT_LIBRARY=NotNeeded -DJAVA_JVM_LIBRARY=NotNeeded >&2
cmake --build "$work/build" -- -j "$(nproc)" >&2
cp "$work/build/libdjl_torch.so" "$torch_lib/"

flavor=${cuda:+cu${cuda//./}}
nvidia=$(python3 -c 'import nvidia,os; print(os.path.dirname(nvidia.__path__[0]) + "/nvidia")' 2>/dev/null || true)
libs=$torch_lib$(ls -d "$nvidia"/*/lib 2>/dev/null | sed 's/^/:/' | tr -d '\n')
echo "# built $torch_lib/libdjl_torch.so; set these before java -jar expresso.jar ... --device gpu:0"
echo "export PYTORCH_LIBRARY_PATH=$torch_lib PYTORCH_FLAVOR=${flavor:-cpu} LD_LIBRARY_PATH=$libs\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}"
