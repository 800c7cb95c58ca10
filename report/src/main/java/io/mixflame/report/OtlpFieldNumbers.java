package io.mixflame.report;

/**
 * Field numbers of OpenTelemetry's profiles messages ({@code profiles/v1development/profiles.proto},
 * {@code collector/profiles/v1development/profiles_service.proto}, and the common and resource messages they use),
 * as opentelemetry-proto 1.11 numbers them.
 */
final class OtlpFieldNumbers {
    static final int REQUEST_RESOURCE_PROFILES = 1;
    static final int REQUEST_DICTIONARY = 2;

    static final int DICTIONARY_MAPPING_TABLE = 1;
    static final int DICTIONARY_LOCATION_TABLE = 2;
    static final int DICTIONARY_FUNCTION_TABLE = 3;
    static final int DICTIONARY_LINK_TABLE = 4;
    static final int DICTIONARY_STRING_TABLE = 5;
    static final int DICTIONARY_ATTRIBUTE_TABLE = 6;
    static final int DICTIONARY_STACK_TABLE = 7;

    static final int RESOURCE_PROFILES_RESOURCE = 1;
    static final int RESOURCE_PROFILES_SCOPE_PROFILES = 2;
    static final int SCOPE_PROFILES_SCOPE = 1;
    static final int SCOPE_PROFILES_PROFILES = 2;
    static final int SCOPE_NAME_FIELD = 1;
    static final int RESOURCE_ATTRIBUTES = 1;

    static final int PROFILE_SAMPLE_TYPE = 1;
    static final int PROFILE_SAMPLES = 2;
    static final int PROFILE_TIME_UNIX_NANO = 3;
    static final int PROFILE_DURATION_NANO = 4;
    static final int PROFILE_PERIOD_TYPE = 5;
    static final int PROFILE_PERIOD = 6;
    static final int PROFILE_ATTRIBUTE_INDICES = 11;

    static final int VALUE_TYPE_TYPE = 1;
    static final int VALUE_TYPE_UNIT = 2;

    static final int SAMPLE_STACK_INDEX = 1;
    static final int SAMPLE_ATTRIBUTE_INDICES = 2;
    static final int SAMPLE_LINK_INDEX = 3;
    static final int SAMPLE_VALUES = 4;

    static final int MAPPING_MEMORY_START = 1;
    static final int MAPPING_MEMORY_LIMIT = 2;
    static final int MAPPING_FILENAME = 4;
    static final int MAPPING_ATTRIBUTE_INDICES = 5;

    static final int STACK_LOCATION_INDICES = 1;

    static final int LOCATION_MAPPING_INDEX = 1;
    static final int LOCATION_ADDRESS = 2;
    static final int LOCATION_LINES = 3;
    static final int LOCATION_ATTRIBUTE_INDICES = 4;

    static final int LINE_FUNCTION_INDEX = 1;
    static final int LINE_LINE = 2;

    static final int FUNCTION_NAME = 1;
    static final int FUNCTION_SYSTEM_NAME = 2;
    static final int FUNCTION_FILENAME = 3;
    static final int FUNCTION_START_LINE = 4;

    static final int KEY_VALUE_AND_UNIT_KEY = 1;
    static final int KEY_VALUE_AND_UNIT_VALUE = 2;

    static final int KEY_VALUE_KEY = 1;
    static final int KEY_VALUE_VALUE = 2;
    static final int ANY_VALUE_STRING = 1;
    static final int ANY_VALUE_INT = 3;

    private OtlpFieldNumbers() {
    }

    // Link
    static final int LINK_TRACE_ID = 1;
    static final int LINK_SPAN_ID = 2;
}
