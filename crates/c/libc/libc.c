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
