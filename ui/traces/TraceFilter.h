#pragma once

#include "store/Store.h"

namespace Aile::Ui {

/// What the Traces view is narrowed to. The same rules run in two places: in SQL through
/// Store::TraceQuery for the stored rows, and in matches() for live rows that arrive from the
/// engine, so a live row shows exactly when the store would have returned it.
struct TraceFilter
{
    QString keyId;  // key id or name
    QString model;  // asked or served, exact
    QString sharer; // handle or name, exact
    int status = 0; // 0: any
    QString text;   // substring of model, route, sharer name, error or key name

    bool isEmpty() const;
    bool matches(const Store::TraceRecord &trace) const;
    Store::TraceQuery query(int limit, int offset, bool withAttempts = false) const;
    bool operator==(const TraceFilter &other) const = default;
};

} // namespace Aile::Ui
