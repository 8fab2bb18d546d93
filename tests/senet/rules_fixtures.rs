//! (tests added with the feature)
