#pragma once

#include <QtCore/QByteArray>
#include <QtCore/QtGlobal>

#include <deque>
#include <functional>

class QObject;
class QSocketNotifier;

namespace Aile::Http {

/// An accepted client's TCP socket on its raw, non-blocking descriptor: what QTcpSocket did for
/// HttpConnection, without its read buffer (a FIONREAD ioctl and a read block per request), its
/// signals or its notifier switching (docs/performance.md, change 12 (sockets)). Reads go with
/// recv(2) into the caller's memory; writes go with send(2) at once, and what the kernel does not
/// take is queued and written, in order, when the descriptor is writable (the write notifier is on
/// only while something is queued). The descriptor is closed exactly once: by close() or the
/// destructor, whichever comes first.
class ClientSocket
{
public:
    /// Takes ownership of `descriptor` (connected, non-blocking). The notifiers belong to `owner`
    /// and call back on its thread.
    ClientSocket(int descriptor, QObject *owner, std::function<void()> onReadable, std::function<void()> onWritable);
    ~ClientSocket();
    ClientSocket(const ClientSocket &) = delete;
    ClientSocket &operator=(const ClientSocket &) = delete;

    int descriptor() const { return m_fd; }
    bool isOpen() const { return m_fd >= 0; }

    /// What receive() returns besides a byte count: 0 is the peer's end of stream (FIN).
    static constexpr qsizetype NothingYet = -1; // EAGAIN: the read notifier says when
    static constexpr qsizetype Broken = -2;     // a reset or another error: the peer is gone
    qsizetype receive(char *into, qsizetype capacity);
    /// Whether the read notifier is on: a connection that will not read turns it off, and TCP
    /// pushes back on the client (level-triggered: left on, it would fire again at once).
    void setReading(bool on);
    bool isReading() const;

    /// Sends what the kernel takes now and queues the rest behind anything already queued;
    /// `whole`, when the bytes are a QByteArray's, is shared rather than copied if none was taken.
    /// Returns the bytes the kernel took, or Broken when the peer is gone (nothing is queued then).
    qint64 send(const char *data, qsizetype size, const QByteArray *whole = nullptr);
    /// Writes what is queued, in order, as far as the kernel takes it (the write notifier's call).
    /// Returns the bytes written, or Broken.
    qint64 flushQueued();
    qint64 queuedBytes() const { return m_queuedBytes; }
    /// How many times the kernel left bytes that had to be queued (diagnostics, tests).
    int queuedWrites() const { return m_queuedWrites; }
    /// Ends our direction (FIN) and keeps reading: the lingering close.
    void shutdownWrite();
    /// Drops the queue, removes the notifiers and closes the descriptor; later calls do nothing.
    void close();

    /// Client descriptors this process holds open (tests: none leaked, none closed twice).
    static int openDescriptors();

private:
    void enqueue(const char *data, qsizetype size, const QByteArray *whole);
    void setWriting(bool on);

    int m_fd;
    QObject *m_owner;
    std::function<void()> m_onWritable;
    QSocketNotifier *m_readNotifier = nullptr;
    QSocketNotifier *m_writeNotifier = nullptr; // made when output is first queued
    std::deque<QByteArray> m_queue;
    qsizetype m_frontOffset = 0; // bytes of m_queue.front() already written
    qint64 m_queuedBytes = 0;
    int m_queuedWrites = 0;
};

} // namespace Aile::Http
