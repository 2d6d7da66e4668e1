# lab/machine.sh - the QEMU machine and the first kernel command line words of every lab boot,
# sourced by lab/run and lab/shell (one place, so that the shell boots what the lab boots).
#
# The machine is pc without the i8042 (-machine pc,i8042=off) and every command line has
# reboot=t. With the i8042 the kernel probes a PS/2 keyboard and mouse, and the mouse's probe
# (0.25-0.45 s under TCG) holds up the init's reboot(2) until it is done; without it the
# kernel's default restart (the keyboard controller's reset line) does nothing for 4 s, and
# reboot=t (a triple fault) ends the guest at once.
# Under TCG every boot also gets noapictimer: QEMU's TCG APIC has no TSC-deadline mode, so
# the kernel would calibrate the local APIC timer against jiffies (100 ms of ticks, 200 ms
# of a 0.6 s boot measured); the HPET serves as the clock event device. (Under KVM the APIC
# timer runs in TSC-deadline mode and needs no calibration.)
# shellcheck shell=bash disable=SC2034
LAB_MACHINE=pc,i8042=off
LAB_BASE_WORDS=(console=ttyS0 panic=-1 reboot=t)
LAB_TCG_WORDS=(noapictimer)
