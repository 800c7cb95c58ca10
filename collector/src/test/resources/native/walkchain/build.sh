#!/bin/sh
# Builds the walk-chain test program into $1. One library is C++ with frame pointers, one C without.
set -e
src=$(dirname "$0")
out=$1
g++ -O2 -fno-omit-frame-pointer -shared -fPIC -o "$out/libmfa.so" "$src/liba.cpp"
gcc -O2 -fomit-frame-pointer -shared -fPIC -o "$out/libmfb.so" "$src/libb.c" -L"$out" -lmfa -Wl,-rpath,"$out"
gcc -O1 -fno-omit-frame-pointer -o "$out/app" "$src/main.c" -L"$out" -lmfb -lmfa -Wl,-rpath,"$out" -lpthread
