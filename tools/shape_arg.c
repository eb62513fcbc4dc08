#include "shape_arg.h"

#include <stdlib.h>
#include <string.h>

long long shape_arg_points(const struct shape_arg *shape)
{
    long long points = 1;
    for (int d = 0; d < shape->rank; ++d) points *= shape->n[d];
    return points;
}

int shape_arg_parse(const char *text, struct shape_arg *shape)
{
    shape->rank = 0;
    long long points = 1;
    for (const char *at = text;;) {
        char *end;
        const long long n = strtoll(at, &end, 10);
        if (end == at || (*end != '\0' && *end != 'x') || shape->rank == 3 || n < 2 || (n & (n - 1)) != 0 ||
            n > (1LL << 30) / points)
            return -1;
        points *= n;
        shape->n[shape->rank++] = n;
        if (*end == '\0') return 0;
        at = end + 1;
    }
}

int embed_arg_parse(const char *text, const struct shape_arg *shape, long long embed[3])
{
    for (int d = 0; d < 3; ++d) embed[d] = d < shape->rank ? shape->n[d] : 0;
    if (strcmp(text, "0") == 0) return 0;
    const char *at = text;
    for (int d = 1; d < shape->rank; ++d) {
        char *end;
        embed[d] = strtoll(at, &end, 10);
        const char after = d + 1 < shape->rank ? 'x' : '\0';
        if (end == at || embed[d] < shape->n[d] || embed[d] > (1LL << 40) || *end != after) return -1;
        at = end + 1;
    }
    return shape->rank > 1 ? 0 : -1;
}
