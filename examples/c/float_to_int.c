// Converting a double to an int is undefined when the value, truncated
// toward zero, does not fit: a scale factor that the programmer thought
// small enough is not. wiser reports the conversion (float_conversion)
// with an input whose product exceeds INT_MAX.
// expect: bug float_conversion 14:24
extern double __VERIFIER_nondet_double(void);

int main(void) {
  double celsius = __VERIFIER_nondet_double();
  if (!(celsius >= -273.15 && celsius <= 1e8))
    return 0;
  // Hundredths of a degree Fahrenheit.
  double f = celsius * 9.0 / 5.0 + 32.0;
  int hundredths = f * 100.0;
  return hundredths > 0;
}
