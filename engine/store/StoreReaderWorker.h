#pragma once

#include <QtCore/QObject>

#include <functional>
#include <memory>

namespace Aile::Store {

class Store;
class StoreReader;

/// StoreReader's worker: lives on the reader's thread and owns the read-only connection there.
class StoreReaderWorker : public QObject
{
    Q_OBJECT
public:
    using Job = std::function<std::function<void()>(const Store &)>;
    explicit StoreReaderWorker(StoreReader *reader);
    ~StoreReaderWorker() override;

    void open(const QString &path);
    void run(const QString &what, quint64 id, const Job &job);

private:
    StoreReader *m_reader; // lives on another thread: only its signals and queued calls are used
    std::unique_ptr<Store> m_store;
};

} // namespace Aile::Store
