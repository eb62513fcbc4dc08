/* Content hashes for the kernel cache: a 128-bit key (two FNV-1a lanes) and a 64-bit checksum. */
#ifndef FFTGEN_RUNTIME_HASH_H
#define FFTGEN_RUNTIME_HASH_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    uint64_t lane[2];
} fftgen_hash;

void fftgen_hash_init(fftgen_hash *hash);
void fftgen_hash_update(fftgen_hash *hash, const void *data, size_t size);
/* Hashes a string and its terminating NUL, so that ("ab","c") and ("a","bc") differ. */
void fftgen_hash_string(fftgen_hash *hash, const char *text);
/* The hash of a whole text (with its NUL): computed once per kernel source, from which the pack and
 * cache keys derive. */
void fftgen_hash_text(const char *text, fftgen_hash *hash);

/* Folds another hash's value into `hash`. */
void fftgen_hash_hash(fftgen_hash *hash, const fftgen_hash *value);

/* 32 hex digits and a NUL. */
void fftgen_hash_hex(const fftgen_hash *hash, char out[33]);

/* FNV-1a 64 of a buffer: detects a truncated or damaged cache entry. */
uint64_t fftgen_checksum(const void *data, size_t size);

#endif
