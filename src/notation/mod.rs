//! SGN: reader, position strings, replay and writer.
