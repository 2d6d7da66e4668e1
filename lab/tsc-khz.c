// SPDX-License-Identifier: GPL-2.0
/*
 * tsc-khz: print the host's TSC frequency in kHz, for the guest's clock.
 *
 * Under TCG, QEMU's RDTSC returns the host's TSC (cpu_get_host_ticks() plus an
 * offset), so the guest's TSC ticks at the host's rate. The guest cannot
 * measure that rate itself: its PIT calibration fails under a loaded host
 * ("Fast TSC calibration failed", "could not calculate TSC khz"), the TSC is
 * then marked unstable, and the clock falls back to refined-jiffies, 4 ms a
 * step. lab/run passes what this program measures as tsc_early_khz= (and
 * tsc=reliable, so that the jiffies watchdog, which loses ticks whenever QEMU
 * is descheduled, cannot throw the TSC out): every boot's CLOCK_MONOTONIC then
 * reads the TSC, with a resolution of nanoseconds.
 *
 * The measure: TSC ticks against CLOCK_MONOTONIC_RAW over 5 windows of 40 ms,
 * each end a clock read bracketed by two TSC reads (taken again when they are
 * far apart); the median, rounded to a kHz. -v says how far the windows spread.
 *
 *   tsc-khz [-v]      exit 0 and the kHz on stdout; 1 when there is no TSC to
 *                     read (not x86) or the middle three windows disagree by
 *                     more than 0.1% (not a constant-rate TSC)
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define HAVE_TSC 1
#else
#define HAVE_TSC 0
#endif

#define WINDOWS 5
#define WINDOW_NS 40000000L

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/*
 * A (CLOCK_MONOTONIC_RAW, TSC) pair read close together: the TSC before and after the clock
 * read, taken again while they are more than 20000 ticks (about 10 us) apart (preempted).
 */
static int pair(double *ns, double *tsc)
{
#if HAVE_TSC
	struct timespec ts;

	for (int i = 0; i < 1000; i++) {
		uint64_t r0 = __rdtsc();

		if (clock_gettime(CLOCK_MONOTONIC_RAW, &ts) < 0) {
			fprintf(stderr, "tsc-khz: clock_gettime(CLOCK_MONOTONIC_RAW) failed: %s\n",
				strerror(errno));
			return -1;
		}
		uint64_t r1 = __rdtsc();

		if (r1 > r0 && r1 - r0 < 20000) {
			*ns = (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
			*tsc = (double)r0 + (double)(r1 - r0) / 2;
			return 0;
		}
	}
	fprintf(stderr, "tsc-khz: 1000 reads of the clock each took over 20000 TSC ticks\n");
	return -1;
#else
	(void)ns;
	(void)tsc;
	fprintf(stderr, "tsc-khz: not an x86 host: no TSC to measure\n");
	return -1;
#endif
}

/* One window: TSC ticks per millisecond of CLOCK_MONOTONIC_RAW, or a negative on error. */
static double window_khz(void)
{
	struct timespec nap = { 0, WINDOW_NS };
	double ns0, tsc0, ns1, tsc1;

	if (pair(&ns0, &tsc0) < 0)
		return -1;
	while (nanosleep(&nap, &nap) < 0) {
		if (errno != EINTR) {
			fprintf(stderr, "tsc-khz: nanosleep(40 ms) failed: %s\n", strerror(errno));
			return -1;
		}
	}
	if (pair(&ns1, &tsc1) < 0)
		return -1;
	if (ns1 <= ns0 || tsc1 <= tsc0) {
		fprintf(stderr, "tsc-khz: the TSC or the clock did not move (%.0f ns, %.0f ticks)\n",
			ns1 - ns0, tsc1 - tsc0);
		return -1;
	}
	return (tsc1 - tsc0) / (ns1 - ns0) * 1e6;
}

int main(int argc, char **argv)
{
	double khz[WINDOWS], med, spread;
	int verbose = argc == 2 && strcmp(argv[1], "-v") == 0;

	if (argc > 2 || (argc == 2 && !verbose)) {
		fprintf(stderr, "usage: tsc-khz [-v]\n");
		return 2;
	}
	for (int i = 0; i < WINDOWS; i++) {
		khz[i] = window_khz();
		if (khz[i] < 0)
			return 1;
	}
	qsort(khz, WINDOWS, sizeof(khz[0]), cmp_double);
	med = khz[WINDOWS / 2];
	spread = (khz[WINDOWS - 2] - khz[1]) / med;
	if (verbose)
		fprintf(stderr, "tsc-khz: %d windows of %ld ms: %.0f..%.0f kHz, median %.0f (middle three within %.4f%%)\n",
			WINDOWS, WINDOW_NS / 1000000, khz[0], khz[WINDOWS - 1], med, spread * 100);
	if (spread > 0.001) {
		fprintf(stderr, "tsc-khz: the middle windows disagree by %.3f%% (%.0f..%.0f kHz): not a constant TSC?\n",
			spread * 100, khz[1], khz[WINDOWS - 2]);
		return 1;
	}
	printf("%.0f\n", med);
	return 0;
}
