#include "ClientSocket.h"

#include <QtCore/QSocketNotifier>

#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <utility>

namespace Aile::Http {

namespace {
std::atomic<int> g_openClientDescriptors{0};

bool wouldBlock(int error)
{
    return error == EAGAIN || error == EWOULDBLOCK;
}
} // namespace

ClientSocket::ClientSocket(int descriptor, QObject *owner, std::function<void()> onReadable, std::function<void()> onWritable)
    : m_fd(descriptor), m_owner(owner), m_onWritable(std::move(onWritable))
{
    ++g_openClientDescriptors;
    m_readNotifier = new QSocketNotifier(qintptr(m_fd), QSocketNotifier::Read, owner);
    QObject::connect(m_readNotifier, &QSocketNotifier::activated, owner, [cb = std::move(onReadable)] { cb(); });
}

ClientSocket::~ClientSocket()
{
    close();
}

int ClientSocket::openDescriptors()
{
    return g_openClientDescriptors.load();
}

qsizetype ClientSocket::receive(char *into, qsizetype capacity)
{
    if (m_fd < 0)
        return Broken;
    ssize_t n = 0;
    do {
        n = ::recv(m_fd, into, size_t(capacity), 0);
    } while (n < 0 && errno == EINTR);
    if (n >= 0)
        return qsizetype(n);
    return wouldBlock(errno) ? NothingYet : Broken;
}

void ClientSocket::setReading(bool on)
{
    if (m_readNotifier && m_readNotifier->isEnabled() != on)
        m_readNotifier->setEnabled(on);
}

bool ClientSocket::isReading() const
{
    return m_readNotifier && m_readNotifier->isEnabled();
}

void ClientSocket::setWriting(bool on)
{
    if (!m_writeNotifier) {
        if (!on || m_fd < 0)
            return;
        m_writeNotifier = new QSocketNotifier(qintptr(m_fd), QSocketNotifier::Write, m_owner);
        QObject::connect(m_writeNotifier, &QSocketNotifier::activated, m_owner, [this] { m_onWritable(); });
        return; // a new notifier starts enabled
    }
    if (m_writeNotifier->isEnabled() != on)
        m_writeNotifier->setEnabled(on);
}

qint64 ClientSocket::send(const char *data, qsizetype size, const QByteArray *whole)
{
    if (m_fd < 0)
        return Broken;
    if (size <= 0)
        return 0;
    if (m_queuedBytes > 0) { // behind what waits, never past it
        enqueue(data, size, whole);
        return 0;
    }
    ssize_t n = 0;
    do {
        n = ::send(m_fd, data, size_t(size), MSG_NOSIGNAL);
    } while (n < 0 && errno == EINTR);
    if (n < 0) {
        if (!wouldBlock(errno))
            return Broken; // reset, or closed with our answer unread (EPIPE)
        n = 0;
    }
    if (n < size)
        enqueue(data + n, size - qsizetype(n), n == 0 ? whole : nullptr);
    return qint64(n);
}

void ClientSocket::enqueue(const char *data, qsizetype size, const QByteArray *whole)
{
    m_queue.push_back(whole && whole->size() == size ? *whole : QByteArray(data, size));
    m_queuedBytes += size;
    ++m_queuedWrites;
    setWriting(true);
}

qint64 ClientSocket::flushQueued()
{
    qint64 written = 0;
    while (m_fd >= 0 && !m_queue.empty()) {
        const QByteArray &front = m_queue.front();
        const qsizetype left = front.size() - m_frontOffset;
        ssize_t n = 0;
        do {
            n = ::send(m_fd, front.constData() + m_frontOffset, size_t(left), MSG_NOSIGNAL);
        } while (n < 0 && errno == EINTR);
        if (n < 0) {
            if (wouldBlock(errno))
                break;
            return Broken;
        }
        written += n;
        m_queuedBytes -= n;
        if (n < left) { // the kernel is full: the notifier says when it has room again
            m_frontOffset += qsizetype(n);
            break;
        }
        m_queue.pop_front();
        m_frontOffset = 0;
    }
    if (m_queue.empty())
        setWriting(false);
    return written;
}

void ClientSocket::shutdownWrite()
{
    if (m_fd >= 0)
        ::shutdown(m_fd, SHUT_WR);
}

void ClientSocket::close()
{
    if (m_fd < 0)
        return;
    // The notifiers go before the descriptor: a notifier on a closed (or reused) number would
    // watch whatever gets that number next.
    delete std::exchange(m_readNotifier, nullptr);
    delete std::exchange(m_writeNotifier, nullptr);
    m_queue.clear();
    m_queuedBytes = 0;
    m_frontOffset = 0;
    ::close(std::exchange(m_fd, -1));
    --g_openClientDescriptors;
}

} // namespace Aile::Http
