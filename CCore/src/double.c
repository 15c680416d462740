/* double.c — a Double written as Swift's description writes it, for Float arguments in field keys. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nc_keys.h"

/* The shortest decimal digits that read back as `value` (|value| finite, non-zero),
 * with the decimal exponent of the first digit: value ≈ 0.d1d2d3… × 10^(exponent+1). */
static size_t shortest_digits(double value, char digits[20], int *exponent) {
    char text[40];
    for (int precision = 1; precision <= 17; precision++) {
        snprintf(text, sizeof text, "%.*e", precision - 1, value);
        if (strtod(text, NULL) == value || precision == 17) break;
    }
    /* text is "d[.ddd]e±XX" in any locale's decimal point: keep the digits, read the exponent */
    size_t count = 0;
    const char *p = text;
    for (; *p != 'e'; p++)
        if (*p >= '0' && *p <= '9') digits[count++] = *p;
    *exponent = atoi(p + 1);
    while (count > 1 && digits[count - 1] == '0') count--;
    return count;
}

size_t nc_format_double(double value, char text[32]) {
    if (isnan(value)) return (size_t)snprintf(text, 32, "nan");
    if (isinf(value)) return (size_t)snprintf(text, 32, value < 0 ? "-inf" : "inf");
    size_t n = 0;
    if (signbit(value)) {
        text[n++] = '-';
        value = -value;
    }
    if (value == 0) {
        memcpy(text + n, "0.0", 4);
        return n + 3;
    }
    char digits[20];
    int exponent;
    size_t count = shortest_digits(value, digits, &exponent);
    if (exponent < -4 || value > 9007199254740992.0) {
        /* 1e-05, 9.1e+15: Swift writes an exponent below 1e-4 and above 2^53 */
        text[n++] = digits[0];
        if (count > 1) {
            text[n++] = '.';
            memcpy(text + n, digits + 1, count - 1);
            n += count - 1;
        }
        n += (size_t)snprintf(text + n, 32 - n, "e%c%02d", exponent < 0 ? '-' : '+', abs(exponent));
        return n;
    }
    if (exponent < 0) {
        /* 0.000123 */
        text[n++] = '0';
        text[n++] = '.';
        for (int zeros = -exponent - 1; zeros > 0; zeros--) text[n++] = '0';
        memcpy(text + n, digits, count);
        n += count;
    } else {
        /* 123.45, 30.0, 1000000000000000.0 */
        size_t whole = (size_t)exponent + 1;
        for (size_t i = 0; i < whole; i++) text[n++] = i < count ? digits[i] : '0';
        text[n++] = '.';
        if (count > whole) {
            memcpy(text + n, digits + whole, count - whole);
            n += count - whole;
        } else {
            text[n++] = '0';
        }
    }
    text[n] = '\0';
    return n;
}
