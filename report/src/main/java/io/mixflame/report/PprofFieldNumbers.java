package io.mixflame.report;

/** Field numbers of pprof's {@code profile.proto}, shared by its writer and its reader. */
final class PprofFieldNumbers {
    static final int PROFILE_SAMPLE_TYPE = 1;
    static final int PROFILE_SAMPLE = 2;
    static final int PROFILE_MAPPING = 3;
    static final int PROFILE_LOCATION = 4;
    static final int PROFILE_FUNCTION = 5;
    static final int PROFILE_STRING_TABLE = 6;
    static final int PROFILE_TIME_NANOS = 9;
    static final int PROFILE_DURATION_NANOS = 10;
    static final int PROFILE_PERIOD_TYPE = 11;
    static final int PROFILE_PERIOD = 12;
    static final int PROFILE_COMMENT = 13;
    static final int PROFILE_DEFAULT_SAMPLE_TYPE = 14;
    static final int VALUE_TYPE_TYPE = 1;
    static final int VALUE_TYPE_UNIT = 2;
    static final int SAMPLE_LOCATION_ID = 1;
    static final int SAMPLE_VALUE = 2;
    static final int SAMPLE_LABEL = 3;
    static final int LABEL_KEY = 1;
    static final int LABEL_STR = 2;
    static final int LABEL_NUM = 3;
    static final int LABEL_NUM_UNIT = 4;
    static final int MAPPING_ID = 1;
    static final int MAPPING_MEMORY_START = 2;
    static final int MAPPING_MEMORY_LIMIT = 3;
    static final int MAPPING_FILENAME = 5;
    static final int MAPPING_BUILD_ID = 6;
    static final int MAPPING_HAS_FUNCTIONS = 7;
    static final int LOCATION_ID = 1;
    static final int LOCATION_MAPPING_ID = 2;
    static final int LOCATION_ADDRESS = 3;
    static final int LOCATION_LINE = 4;
    static final int LINE_FUNCTION_ID = 1;
    static final int LINE_LINE = 2;
    static final int FUNCTION_ID = 1;
    static final int FUNCTION_NAME = 2;
    static final int FUNCTION_SYSTEM_NAME = 3;
    static final int FUNCTION_FILENAME = 4;
    static final int FUNCTION_START_LINE = 5;

    private PprofFieldNumbers() {
    }
}
