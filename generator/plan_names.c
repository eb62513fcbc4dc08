/* The text forms of the planner's names and options: precisions, tile caps, pass sets, orders,
 * cluster sizes, intermediate formats and shapes, as the CLI, wisdom files and --explain write them. */
#include "planner.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const PRECISION_NAMES[FFTGEN_KERNEL_PRECISION_COUNT] = {"fp32", "fp16", "split",
                                                                             "split-papers"};

const char *fftgen_precision_name(fftgen_kernel_precision precision)
{
    return (unsigned)precision < FFTGEN_KERNEL_PRECISION_COUNT ? PRECISION_NAMES[precision] : "unknown";
}

int fftgen_precision_parse(const char *name)
{
    for (int p = 0; p < FFTGEN_KERNEL_PRECISION_COUNT; ++p)
        if (strcmp(name, PRECISION_NAMES[p]) == 0) return p;
    return -1;
}

int fftgen_precision_is_split(fftgen_kernel_precision precision)
{
    return precision == FFTGEN_KERNEL_SPLIT || precision == FFTGEN_KERNEL_SPLIT_PAPERS;
}

int fftgen_tile_caps_parse(const char *text, fftgen_tile_caps *caps)
{
    fftgen_tile_caps parsed = {{0}};
    int count = 0;
    for (const char *at = text;; at++) {
        if (*at < '0' || *at > '9' || count == FFTGEN_MAX_PASSES) return -1; /* no sign, no space */
        char *end;
        errno = 0;
        const long tile = strtol(at, &end, 10);
        const int allowed = tile >= 0 && tile <= FFTGEN_MAX_TILE_CAP && (tile & (tile - 1)) == 0;
        if (errno == ERANGE || !allowed || (*end != '\0' && *end != ',')) return -1;
        parsed.pass[count++] = (int)tile;
        at = end;
        if (*at == '\0') break;
    }
    for (int i = count; i < FFTGEN_MAX_PASSES; ++i) parsed.pass[i] = parsed.pass[count - 1];
    *caps = parsed;
    return 0;
}

void fftgen_tile_caps_text(const fftgen_tile_caps *caps, char *out, size_t len)
{
    /* the passes up to the last one that differs from those after it */
    int shown = FFTGEN_MAX_PASSES;
    while (shown > 1 && caps->pass[shown - 1] == caps->pass[shown - 2]) --shown;
    size_t used = 0;
    out[0] = '\0';
    for (int i = 0; i < shown && used < len; ++i) {
        const int written = snprintf(out + used, len - used, "%s%d", i ? "," : "", caps->pass[i]);
        if (written < 0) break;
        used += (size_t)written;
    }
}

int fftgen_tile_caps_any(const fftgen_tile_caps *caps)
{
    for (int i = 0; i < FFTGEN_MAX_PASSES; ++i)
        if (caps->pass[i] > 0) return 1;
    return 0;
}

static const char *const INTERMEDIATE_NAMES[] = {"default", "fp16", "shared-exponent", "mixed"};

const char *fftgen_intermediate_name(fftgen_intermediate intermediate)
{
    return INTERMEDIATE_NAMES[intermediate];
}

int fftgen_intermediate_parse(const char *text)
{
    for (int i = 0; text != NULL && i < (int)(sizeof INTERMEDIATE_NAMES / sizeof *INTERMEDIATE_NAMES); ++i)
        if (strcmp(text, INTERMEDIATE_NAMES[i]) == 0) return i;
    return -1;
}

const char *fftgen_order_name(int columns_first)
{
    return columns_first ? "columns-first" : "rows-first";
}

int fftgen_order_parse(const char *text)
{
    if (text == NULL) return -1;
    if (strcmp(text, "rows-first") == 0) return 0;
    if (strcmp(text, "columns-first") == 0) return 1;
    return -1;
}

int fftgen_pass_mask_parse(const char *text)
{
    if (text == NULL) return -1;
    if (strcmp(text, "none") == 0) return 0;
    int mask = 0;
    for (const char *at = text;;) {
        char *end;
        errno = 0;
        const long pass = strtol(at, &end, 10);
        if (end == at || errno == ERANGE || pass < 1 || pass > FFTGEN_MAX_PASSES || (*end != '\0' && *end != ','))
            return -1;
        mask |= 1 << (pass - 1);
        if (*end == '\0') return mask;
        at = end + 1;
    }
}

void fftgen_pass_mask_text(int mask, char *out, size_t len)
{
    size_t at = 0;
    if (len > 0) out[0] = '\0';
    for (int i = 0; i < FFTGEN_MAX_PASSES && at < len; ++i)
        if (mask >> i & 1) at += (size_t)snprintf(out + at, len - at, "%s%d", at ? "," : "", i + 1);
    if (mask == 0) snprintf(out, len, "none");
}

int fftgen_cluster_parse(const char *text)
{
    if (text == NULL || text[0] < '0' || text[0] > '9' || text[1] != '\0') return -1;
    const int size = text[0] - '0';
    return size <= FFTGEN_MAX_CLUSTER && (size & (size - 1)) == 0 ? size : -1; /* 0, 1, 2, 4, 8 */
}

void fftgen_shape_text(int rank, const long long *shape, char *out, size_t len)
{
    size_t used = 0;
    out[0] = '\0';
    for (int d = 0; d < rank && used < len; ++d) {
        const int written = snprintf(out + used, len - used, "%s%lld", d ? "x" : "", shape[d]);
        if (written < 0) break;
        used += (size_t)written;
    }
}
