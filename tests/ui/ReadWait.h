#pragma once

// Waiting for what the store reader brings (it answers on the GUI thread's event loop).
#include "store/StoreReader.h"
#include "traces/TraceTableModel.h"

#include <QtTest/QtTest>

#include <memory>
#include <optional>

namespace Aile::Test {

/// A reader of path that has opened its connection, or null (and a message) when it could not.
inline std::unique_ptr<Store::StoreReader> openedReader(const QString &path)
{
    auto reader = std::make_unique<Store::StoreReader>(path);
    QSignalSpy opened(reader.get(), &Store::StoreReader::opened);
    if (!opened.wait(10000) && opened.isEmpty())
        return nullptr;
    return reader;
}

/// The row's trace with its attempts, as the detail pane gets it.
inline std::optional<Store::TraceRecord> fullTraceOf(const Ui::TraceTableModel &model, int row)
{
    std::optional<std::optional<Store::TraceRecord>> got;
    QObject context;
    model.loadFullTrace(row, &context, [&](std::optional<Store::TraceRecord> t) { got = std::move(t); });
    if (!QTest::qWaitFor([&] { return got.has_value(); }, 10000))
        return std::nullopt;
    return *got;
}

/// Waits until the model's reload or page is merged.
inline bool settled(const Ui::TraceTableModel &model)
{
    return QTest::qWaitFor([&] { return !model.isReading(); }, 20000);
}

} // namespace Aile::Test
