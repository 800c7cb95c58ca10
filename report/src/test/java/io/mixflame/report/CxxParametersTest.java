package io.mixflame.report;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CxxParametersTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "JavaCalls::call_helper(JavaValue*, methodHandle const&, JavaCallArguments*, JavaThread*)"
                + " | JavaCalls::call_helper",
        "Foo::size() const | Foo::size",
        "Foo::take(Foo&&) && | Foo::take",
        "Foo::operator()(int) | Foo::operator()",
        "Foo::operator()() const | Foo::operator()",
        "Foo::operator<(Foo const&) const | Foo::operator<",
        "std::function<void (int)>::operator()(int) const | std::function<void (int)>::operator()",
        "void std::__invoke<Foo (*)(int)>(Foo (*&&)(int), int&&) | void std::__invoke<Foo (*)(int)>",
        "main::{lambda(int)#1}::operator()(int) const | main::{lambda(int)#1}::operator()",
        "(anonymous namespace)::worker(void*) | (anonymous namespace)::worker",
        "run(void (*)(int), int) | run",
        "deflate_slow(internal_state*, int) [clone .constprop.0] | deflate_slow",
        "public: void __cdecl Foo::bar(int) __ptr64 | public: void __cdecl Foo::bar",
    })
    void cutsTheParameterList(String name, String expected) {
        assertThat(CxxParameters.strip(name)).isEqualTo(expected);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "deflate", "JavaCalls::call_helper", "Foo::operator()", "main::{lambda(int)#1}::operator()",
        "main::{lambda(int)#1}", "(anonymous namespace)::worker", "typeinfo for (anonymous namespace)::Foo",
        "std::function<void (int)>::_M_invoke", "foo(int)::counter", "(x)", "[vdso]",
        "std::function<void (int)>::operator()",
    })
    void leavesNamesWithoutAParameterListAlone(String name) {
        assertThat(CxxParameters.strip(name)).isEqualTo(name);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "Foo::operator()(int) const", "main::{lambda(int)#1}::operator()(int) const",
        "std::function<void (int)>::operator()(int) const", "(anonymous namespace)::worker(void*)",
    })
    void cuttingTwiceChangesNothingMore(String name) {
        String once = CxxParameters.strip(name);
        assertThat(once).isNotEqualTo(name);
        assertThat(CxxParameters.strip(once)).isEqualTo(once);
    }
}
