/* The C library wiser links with a program that calls these functions
 * without defining them: each is plain C, compiled by wiser's own front
 * end like the program, so the one semantics runs it (every access
 * checked, every path explored). A function starts at its marker line;
 * only the functions a program uses are kept (crates/c/src/libc.rs).
 * `size_t` is `unsigned long` here: the width of size_t under both data
 * models. */
typedef unsigned long __wiser_size_t;

/* wiser-libc: strlen */
__wiser_size_t strlen(const char *s) {
  __wiser_size_t n = 0;
  while (s[n]) n++;
  return n;
}

/* wiser-libc: strnlen */
__wiser_size_t strnlen(const char *s, __wiser_size_t max) {
  __wiser_size_t n = 0;
  while (n < max && s[n]) n++;
  return n;
}

/* wiser-libc: strcmp */
int strcmp(const char *a, const char *b) {
  while (*a && *a == *b) {
    a++;
    b++;
  }
  return (unsigned char)*a - (unsigned char)*b;
}

/* wiser-libc: strncmp */
int strncmp(const char *a, const char *b, __wiser_size_t n) {
  for (; n > 0; n--) {
    if (*a != *b) return (unsigned char)*a - (unsigned char)*b;
    if (!*a) return 0;
    a++;
    b++;
  }
  return 0;
}

/* wiser-libc: strcpy */
char *strcpy(char *d, const char *s) {
  char *r = d;
  while ((*d = *s)) {
    d++;
    s++;
  }
  return r;
}

/* wiser-libc: strncpy */
char *strncpy(char *d, const char *s, __wiser_size_t n) {
  __wiser_size_t i = 0;
  for (; i < n && s[i]; i++) d[i] = s[i];
  for (; i < n; i++) d[i] = 0;
  return d;
}

/* wiser-libc: strcat */
char *strcat(char *d, const char *s) {
  char *e = d;
  while (*e) e++;
  while ((*e = *s)) {
    e++;
    s++;
  }
  return d;
}

/* wiser-libc: strncat */
char *strncat(char *d, const char *s, __wiser_size_t n) {
  char *e = d;
  while (*e) e++;
  for (; n > 0 && *s; n--) {
    *e = *s;
    e++;
    s++;
  }
  *e = 0;
  return d;
}

/* wiser-libc: strchr */
char *strchr(const char *s, int c) {
  for (;; s++) {
    if (*s == (char)c) return (char *)s;
    if (!*s) return 0;
  }
}

/* wiser-libc: strrchr */
char *strrchr(const char *s, int c) {
  const char *found = 0;
  for (;; s++) {
    if (*s == (char)c) found = s;
    if (!*s) return (char *)found;
  }
}

/* wiser-libc: strstr */
char *strstr(const char *h, const char *n) {
  if (!*n) return (char *)h;
  for (; *h; h++) {
    __wiser_size_t i = 0;
    while (n[i] && h[i] == n[i]) i++;
    if (!n[i]) return (char *)h;
  }
  return 0;
}

/* wiser-libc: strspn */
__wiser_size_t strspn(const char *s, const char *accept) {
  __wiser_size_t n = 0;
  for (; s[n]; n++) {
    const char *a = accept;
    while (*a && *a != s[n]) a++;
    if (!*a) return n;
  }
  return n;
}

/* wiser-libc: strcspn */
__wiser_size_t strcspn(const char *s, const char *reject) {
  __wiser_size_t n = 0;
  for (; s[n]; n++) {
    const char *r = reject;
    while (*r && *r != s[n]) r++;
    if (*r) return n;
  }
  return n;
}

/* wiser-libc: isdigit */
int isdigit(int c) { return c >= '0' && c <= '9'; }

/* wiser-libc: isupper */
int isupper(int c) { return c >= 'A' && c <= 'Z'; }

/* wiser-libc: islower */
int islower(int c) { return c >= 'a' && c <= 'z'; }

/* wiser-libc: isalpha */
int isalpha(int c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

/* wiser-libc: isalnum */
int isalnum(int c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* wiser-libc: isxdigit */
int isxdigit(int c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* wiser-libc: isspace */
int isspace(int c) { return c == ' ' || (c >= 9 && c <= 13); }

/* wiser-libc: iscntrl */
int iscntrl(int c) { return (c >= 0 && c < 32) || c == 127; }

/* wiser-libc: isprint */
int isprint(int c) { return c >= 32 && c < 127; }

/* wiser-libc: isgraph */
int isgraph(int c) { return c > 32 && c < 127; }

/* wiser-libc: ispunct */
int ispunct(int c) {
  return c > 32 && c < 127 && !((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'));
}

/* wiser-libc: toupper */
int toupper(int c) { return c >= 'a' && c <= 'z' ? c - 32 : c; }

/* wiser-libc: tolower */
int tolower(int c) { return c >= 'A' && c <= 'Z' ? c + 32 : c; }

/* wiser-libc: abs */
int abs(int x) { return x < 0 ? -x : x; }

/* wiser-libc: labs */
long labs(long x) { return x < 0 ? -x : x; }

/* wiser-libc: llabs */
long long llabs(long long x) { return x < 0 ? -x : x; }

/* wiser-libc: strtol */
long strtol(const char *s, char **end, int base) {
  /* glibc's: leading space, a sign, `0x` for base 16 (and base 0),
     `0` for octal (base 0); a value out of range is LONG_MAX or
     LONG_MIN (errno is not modelled). */
  const char *start = s;
  unsigned long max = (unsigned long)-1 / 2;
  unsigned long v = 0;
  int neg = 0, any = 0, over = 0;
  while (*s == ' ' || (*s >= 9 && *s <= 13)) s++;
  if (*s == '-' || *s == '+') {
    neg = *s == '-';
    s++;
  }
  if ((base == 0 || base == 16) && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    s += 2;
    base = 16;
  } else if (base == 0) {
    base = s[0] == '0' ? 8 : 10;
  }
  for (;; s++) {
    int d;
    if (*s >= '0' && *s <= '9') d = *s - '0';
    else if (*s >= 'a' && *s <= 'z') d = *s - 'a' + 10;
    else if (*s >= 'A' && *s <= 'Z') d = *s - 'A' + 10;
    else break;
    if (d >= base) break;
    any = 1;
    if (v > (max + (unsigned long)neg - (unsigned long)d) / (unsigned long)base) over = 1;
    else v = v * (unsigned long)base + (unsigned long)d;
  }
  if (end) *end = (char *)(any ? s : start);
  if (over) return neg ? (long)(0 - max) - 1 : (long)max;
  return neg ? (long)(0 - v) : (long)v;
}

/* wiser-libc: atol */
long atol(const char *s) { return strtol(s, 0, 10); }

/* wiser-libc: atoi */
int atoi(const char *s) { return (int)strtol(s, 0, 10); }

/* wiser-libc: sprintf (lowered by crates/c/src/lower/sprintf.rs, which
   reads the format and writes each piece through __wiser_put) */

/* wiser-libc: snprintf (likewise, through __wiser_put) */

/* wiser-libc: __wiser_put and the functions after it: what `sprintf`
   and `snprintf` write, one call per piece of their
   format. Each function takes the buffer `d`, its size `room` (snprintf's
   bound; the largest size_t for sprintf) and the position `pos` of the
   next character, and returns the position after what it wrote: a
   character is stored only below `room - 1` and counted always, as
   snprintf counts. Conversions are glibc's for integers, characters and
   strings; their flags come as bits: 1 `-`, 2 `0`, 4 `+`, 8 space, 16
   `#`, 32 upper-case digits; a precision below 0 is none. The values come
   converted to the conversion's type, an integer as its sign and
   magnitude. */
__wiser_size_t __wiser_put(char *d, __wiser_size_t room, __wiser_size_t pos, int c) {
  if (pos + 1 < room) d[pos] = (char)c;
  return pos + 1;
}

__wiser_size_t __wiser_pad(char *d, __wiser_size_t room, __wiser_size_t pos, int c, int n) {
  for (; n > 0; n--) pos = __wiser_put(d, room, pos, c);
  return pos;
}

__wiser_size_t __wiser_put_int(char *d, __wiser_size_t room, __wiser_size_t pos,
                               unsigned long long mag, int neg, int base, int flags,
                               int width, int prec) {
  char digits[24];
  int n = 0, zeros = 0, len, i;
  int sign = neg ? '-' : (flags & 4) ? '+' : (flags & 8) ? ' ' : 0;
  int prefix = (flags & 16) && base == 16 && mag != 0;
  if (mag <= 4294967295ULL) {
    /* The digits of a value of 32 bits, by 32-bit division: the
       solver's work for a symbolic `int` (most values) is a quarter. */
    unsigned int m = (unsigned int)mag;
    if (!(m == 0 && prec == 0)) {
      do {
        int v = (int)(m % (unsigned int)base);
        digits[n++] = (char)(v < 10 ? '0' + v : ((flags & 32) ? 'A' : 'a') + v - 10);
        m /= (unsigned int)base;
      } while (m);
    }
  } else {
    do {
      int v = (int)(mag % (unsigned long long)base);
      digits[n++] = (char)(v < 10 ? '0' + v : ((flags & 32) ? 'A' : 'a') + v - 10);
      mag /= (unsigned long long)base;
    } while (mag);
  }
  if (prec > n) zeros = prec - n;
  if ((flags & 16) && base == 8 && zeros == 0 && (n == 0 || digits[n - 1] != '0')) zeros = 1;
  len = (sign != 0) + 2 * prefix + zeros + n;
  if ((flags & 2) && !(flags & 1) && prec < 0 && width > len) {
    zeros += width - len;
    len = width;
  }
  if (!(flags & 1)) pos = __wiser_pad(d, room, pos, ' ', width - len);
  if (sign) pos = __wiser_put(d, room, pos, sign);
  if (prefix) {
    pos = __wiser_put(d, room, pos, '0');
    pos = __wiser_put(d, room, pos, (flags & 32) ? 'X' : 'x');
  }
  pos = __wiser_pad(d, room, pos, '0', zeros);
  for (i = n - 1; i >= 0; i--) pos = __wiser_put(d, room, pos, digits[i]);
  if (flags & 1) pos = __wiser_pad(d, room, pos, ' ', width - len);
  return pos;
}

__wiser_size_t __wiser_put_str(char *d, __wiser_size_t room, __wiser_size_t pos,
                               const char *s, int flags, int width, int prec) {
  int n = 0, i;
  /* (A NULL `s` never comes: output.rs passes glibc's "(null)" for it.) */
  while ((prec < 0 || n < prec) && s[n]) n++;
  if (!(flags & 1)) pos = __wiser_pad(d, room, pos, ' ', width - n);
  for (i = 0; i < n; i++) pos = __wiser_put(d, room, pos, s[i]);
  if (flags & 1) pos = __wiser_pad(d, room, pos, ' ', width - n);
  return pos;
}

__wiser_size_t __wiser_put_chr(char *d, __wiser_size_t room, __wiser_size_t pos, int c,
                               int flags, int width) {
  if (!(flags & 1)) pos = __wiser_pad(d, room, pos, ' ', width - 1);
  pos = __wiser_put(d, room, pos, c);
  if (flags & 1) pos = __wiser_pad(d, room, pos, ' ', width - 1);
  return pos;
}

int __wiser_put_end(char *d, __wiser_size_t room, __wiser_size_t pos) {
  if (room > 0) d[pos < room ? pos : room - 1] = 0;
  return (int)pos;
}
