/*
 * Test shim for running ra3's Windows build under Wine 8 (scripts/windows-smoke.sh), never shipped:
 * Bun's Windows runtime imports ProcessPrng from bcryptprimitives.dll, which real Windows (10 and later)
 * has and Wine 8 lacks. This DLL exports it and forwards to SystemFunction036 (RtlGenRandom, advapi32),
 * in chunks because RtlGenRandom takes a 32-bit length.
 */
#include <windows.h>

typedef BOOLEAN(WINAPI *RtlGenRandomFn)(PVOID buffer, ULONG length);

BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length) {
  static RtlGenRandomFn gen;
  if (!gen) gen = (RtlGenRandomFn)GetProcAddress(LoadLibraryA("advapi32.dll"), "SystemFunction036");
  if (!gen) return FALSE;
  while (length > 0) {
    ULONG n = length > 0x40000000 ? 0x40000000 : (ULONG)length;
    if (!gen(data, n)) return FALSE;
    data += n;
    length -= n;
  }
  return TRUE;
}
