/** A clock for an app that still serves getPetById: deprecated, but before its sunset (2027-06-30). */
export const whileDeprecated = () => Date.parse("2027-01-01T00:00:00Z");
