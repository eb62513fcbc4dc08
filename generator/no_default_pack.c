/* The fftgen command builds packs; it embeds none (libfftgen links runtime/default_pack.S instead). */
const unsigned char fftgen_default_pack_data[1] = {0};
const unsigned long long fftgen_default_pack_size = 0;
