#include "shape_arg.h"

#include <stdlib.h>

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
