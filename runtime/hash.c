#include "hash.h"

#include <stdio.h>
#include <string.h>

#define FNV_PRIME 0x100000001b3ULL
#define FNV_OFFSET 0xcbf29ce484222325ULL

void fftgen_hash_init(fftgen_hash *hash)
{
    hash->lane[0] = FNV_OFFSET;
    hash->lane[1] = FNV_OFFSET ^ 0x9E3779B97F4A7C15ULL; /* a second, independent start */
}

void fftgen_hash_update(fftgen_hash *hash, const void *data, size_t size)
{
    const unsigned char *bytes = data;
    for (size_t i = 0; i < size; ++i) {
        hash->lane[0] = (hash->lane[0] ^ bytes[i]) * FNV_PRIME;
        hash->lane[1] = (hash->lane[1] ^ (unsigned char)(bytes[i] + 0x5b)) * FNV_PRIME;
        hash->lane[1] ^= hash->lane[1] >> 29;
    }
}

void fftgen_hash_string(fftgen_hash *hash, const char *text)
{
    fftgen_hash_update(hash, text, strlen(text) + 1);
}

void fftgen_hash_text(const char *text, fftgen_hash *hash)
{
    fftgen_hash_init(hash);
    fftgen_hash_string(hash, text);
}

void fftgen_hash_hash(fftgen_hash *hash, const fftgen_hash *value)
{
    fftgen_hash_update(hash, value->lane, sizeof value->lane);
}

void fftgen_hash_hex(const fftgen_hash *hash, char out[33])
{
    snprintf(out, 33, "%016llx%016llx", (unsigned long long)hash->lane[0], (unsigned long long)hash->lane[1]);
}

uint64_t fftgen_checksum(const void *data, size_t size)
{
    const unsigned char *bytes = data;
    uint64_t h = FNV_OFFSET;
    for (size_t i = 0; i < size; ++i) h = (h ^ bytes[i]) * FNV_PRIME;
    return h;
}
