#pragma once

#include "testsupport/FakeUpstream.h"
#include "testsupport/TestEngine.h"

#include <memory>

namespace Aile::Test {

/// The fixture of the listening-side suites: a fresh fake upstream on port 0 and the real engine
/// (basicConfig) on port 0 against it, the engine on the given clock. Returns an empty string once
/// both run, else why not (for QVERIFY2).
inline QString startBasicEngine(std::unique_ptr<FakeUpstream> &upstream, std::unique_ptr<TestEngine> &engine, Clock *clock)
{
    upstream = std::make_unique<FakeUpstream>();
    if (!upstream->listen())
        return QStringLiteral("the fake upstream cannot listen");
    engine = std::make_unique<TestEngine>(basicConfig(upstream->baseUrl()), clock);
    return engine->start() ? QString() : engine->startError();
}

} // namespace Aile::Test
