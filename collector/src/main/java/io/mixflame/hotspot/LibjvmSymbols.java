package io.mixflame.hotspot;

import io.mixflame.image.LoadedModule;

/**
 * Where libjvm's hidden variables that name its generated stubs are in the process: looked up in its symbol tables
 * at the first question, all of {@link GeneratedStubs#SYMBOLS} in the same pass (each pass reads every symbol of a
 * table of tens of thousands), and kept.
 */
final class LibjvmSymbols implements GeneratedStubs.Symbols {
    private final LoadedModule libjvm;
    private long[] addresses;

    LibjvmSymbols(LoadedModule libjvm) {
        this.libjvm = libjvm;
    }

    @Override
    public synchronized long address(String symbol) {
        String[] names = GeneratedStubs.SYMBOLS;
        for (int i = 0; i < names.length; i++) {
            if (names[i].equals(symbol)) {
                if (addresses == null) {
                    addresses = inProcess(libjvm.image().exports().addresses(names));
                }
                return addresses[i];
            }
        }
        return inProcess(libjvm.image().exports().addresses(symbol))[0];
    }

    private long[] inProcess(long[] linkTime) {
        for (int i = 0; i < linkTime.length; i++) {
            linkTime[i] = linkTime[i] == 0 ? 0 : linkTime[i] + libjvm.bias();
        }
        return linkTime;
    }
}
