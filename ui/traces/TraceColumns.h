#pragma once

#include "store/TraceRecord.h"

#include <QtCore/QCoreApplication>
#include <QtCore/QVariant>

namespace Aile::Ui {

/// The columns of a trace row, shared by the table and the CSV export so both say the same.
class TraceColumns
{
    Q_DECLARE_TR_FUNCTIONS(Aile::Ui::TraceColumns)
public:
    enum Column {
        Time,
        Key,
        Tool,
        ModelAsked,
        ModelServed,
        Route,
        Sharer,
        Status,
        Attempts,
        Ttft,
        Duration,
        TokensIn,
        TokensOut,
        Cost,
        Affinity,
        Count
    };

    static QString title(int column);
    /// What the table shows (localised, formatted).
    static QString display(const Store::TraceRecord &trace, int column, qint64 nowMs);
    /// Plain, locale-free values for a CSV file (numbers as numbers, times in ISO 8601 UTC).
    static QString csvHeader(int column);
    static QString csvValue(const Store::TraceRecord &trace, int column);
    static bool isNumeric(int column);
};

} // namespace Aile::Ui
