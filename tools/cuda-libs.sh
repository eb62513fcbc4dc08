# Sourced by the scripts that run on the GPU machine: cuFFT is linked dynamically, so the toolkit's
# libraries go on LD_LIBRARY_PATH, wherever that machine keeps them.
for dir in /usr/local/cuda/lib64 /usr/local/cuda/lib /usr/local/cuda/targets/x86_64-linux/lib; do
    [ -d "$dir" ] && export LD_LIBRARY_PATH="$dir:${LD_LIBRARY_PATH:-}"
done
